// Deferred work waits for a burst's requests to be answered, then for the burst to settle, and
// never longer than its bound; real requests on a real server mark what is in flight.
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QUIET_SETTLE_MS,
  RequestActivity,
  UNVERIFIED_MAX_MS,
} from '../../../../src/adapters/http/request-activity.js';
import { foregroundFirstCluster } from '../../../../src/engine/foreground-first.js';
import type { ClusterPort } from '../../../../src/ports/cluster.js';

const activity = new RequestActivity();
const held: ServerResponse[] = [];
const server = createServer((_req, res) => {
  activity.track(res);
  held.push(res);
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  for (const res of held) res.end();
  await new Promise((resolve) => server.close(resolve));
});

const until = async (ok: () => boolean): Promise<void> => {
  while (!ok()) await new Promise((resolve) => setTimeout(resolve, 5));
};
const answerAll = (): void => {
  for (const res of held.splice(0)) res.end('ok');
};
/** A response of a request read in this very turn (its 'close' is the end of its answer). */
const response = (): ServerResponse => new ServerResponse(new IncomingMessage(new Socket()));

describe('RequestActivity', () => {
  it('is quiet at once with nothing in flight', async () => {
    const started = performance.now();
    await activity.quiet();
    expect(performance.now() - started).toBeLessThan(QUIET_SETTLE_MS);
  });

  it('waits while requests wait for their answer, then for the burst to settle', async () => {
    const requests = [fetch(url), fetch(url), fetch(url)];
    await until(() => activity.waiting === 3);
    let done = false;
    const quiet = activity.quiet(10_000).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    answerAll();
    const answered = performance.now();
    await Promise.all(requests);
    await quiet;
    expect(activity.waiting).toBe(0);
    expect(performance.now() - answered).toBeGreaterThanOrEqual(QUIET_SETTLE_MS - 2);
  });

  it('never waits longer than its bound', async () => {
    const request = fetch(url);
    await until(() => activity.waiting === 1);
    const started = performance.now();
    await activity.quiet(100);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(activity.waiting).toBe(1);
    answerAll();
    await request;
  });

  it('counts a request from its arrival, and one never signed only briefly', async () => {
    const own = new RequestActivity();
    const unsigned = response();
    own.arrive(unsigned);
    const signed = response();
    own.arrive(signed).signed();
    expect(own.waiting).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, UNVERIFIED_MAX_MS + 30));
    // The stranger's request stopped counting; the signed one counts until it is answered.
    expect(own.waiting).toBe(1);
    signed.emit('close');
    expect(own.waiting).toBe(0);
    unsigned.emit('close');
    expect(own.waiting).toBe(0);
  });

  it('wakes waiters one a turn, and stops when a request arrives meanwhile', async () => {
    const own = new RequestActivity();
    const first = response();
    own.track(first);
    const woken: number[] = [];
    let arrived: ServerResponse | undefined;
    const waits = [0, 1, 2].map((i) =>
      own.quiet(10_000).then(() => {
        woken.push(i);
        // The first deferred start meets a request read in the same turn (a burst's next).
        if (i === 0) {
          arrived = response();
          own.track(arrived);
        }
      }),
    );
    first.emit('close');
    await until(() => woken.length > 0);
    await new Promise((resolve) => setTimeout(resolve, QUIET_SETTLE_MS * 3));
    expect(woken).toEqual([0]);
    arrived!.emit('close');
    await Promise.all(waits);
    expect(woken).toEqual([0, 1, 2]);
  });

  it('holds a run’s calls back until then', async () => {
    const calls: string[] = [];
    const port = foregroundFirstCluster(
      {
        name: 'cluster-a',
        serverVersion: () => {
          calls.push('version');
          return Promise.resolve('v1.33.4');
        },
      } as Partial<ClusterPort> as ClusterPort,
      activity,
    );
    const request = fetch(url);
    await until(() => activity.waiting === 1);
    const version = port.serverVersion();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
    answerAll();
    await request;
    expect(await version).toBe('v1.33.4');
    expect(calls).toEqual(['version']);
  });
});
