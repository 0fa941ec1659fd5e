// Deferred work waits for a burst's requests to be answered, then for the burst to settle, and
// never longer than its bound; real requests on a real server mark what is in flight.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QUIET_SETTLE_MS,
  RequestActivity,
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
