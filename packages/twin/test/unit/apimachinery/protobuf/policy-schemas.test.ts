// The protobuf bodies client-go sends for deletions and budgets: the runtime.Unknown envelope
// around DeleteOptions (as kubectl drain's fallback DELETE carries it, byte for byte), a policy/v1
// Eviction and the PodDisruptionBudget of kubectl create pdb.
import { describe, expect, it } from 'vitest';
import { decodeProtobuf } from '../../../../src/apimachinery/protobuf/envelope.js';

/** A length-delimited field: tag (field << 3 | 2), varint length, bytes. */
function bytes(field: number, value: Buffer | string): Buffer {
  const data = typeof value === 'string' ? Buffer.from(value) : value;
  return Buffer.concat([Buffer.from([(field << 3) | 2, data.length]), data]);
}

function varint(field: number, value: number): Buffer {
  return Buffer.from([field << 3, value]);
}

function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = Buffer.concat([bytes(1, apiVersion), bytes(2, kind)]);
  const unknown = Buffer.concat([bytes(1, typeMeta), bytes(2, raw), bytes(3, ''), bytes(4, '')]);
  return Buffer.concat([Buffer.from('k8s\0', 'binary'), unknown]);
}

describe('protobuf DeleteOptions, Eviction and PodDisruptionBudget bodies', () => {
  it('decodes the empty DeleteOptions kubectl drain sends', () => {
    // As `kubectl drain -v=8` logs it against a server without pods/eviction.
    const sent = Buffer.from(
      '6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200',
      'hex',
    );
    expect(decodeProtobuf(sent)).toEqual({ apiVersion: 'v1', kind: 'DeleteOptions' });
  });

  it('decodes an Eviction with its DeleteOptions', () => {
    const meta = Buffer.concat([bytes(1, 'web-1'), bytes(3, 'default')]);
    const pre = Buffer.concat([bytes(1, 'uid-1')]);
    const options = Buffer.concat([
      varint(1, 5),
      bytes(2, pre),
      bytes(4, 'Foreground'),
      bytes(5, 'All'),
    ]);
    const eviction = Buffer.concat([bytes(1, meta), bytes(2, options)]);
    expect(decodeProtobuf(envelope('policy/v1', 'Eviction', eviction))).toEqual({
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'web-1', namespace: 'default' },
      deleteOptions: {
        gracePeriodSeconds: 5,
        preconditions: { uid: 'uid-1' },
        propagationPolicy: 'Foreground',
        dryRun: ['All'],
      },
    });
  });

  it('decodes the PodDisruptionBudget kubectl create pdb sends', () => {
    const intOrString = (n: number): Buffer => Buffer.concat([varint(1, 0), varint(2, n)]);
    const label = Buffer.concat([bytes(1, 'app'), bytes(2, 'web')]);
    const expression = Buffer.concat([
      bytes(1, 'tier'),
      bytes(2, 'In'),
      bytes(3, 'a'),
      bytes(3, 'b'),
    ]);
    const selector = Buffer.concat([bytes(1, label), bytes(2, expression)]);
    const spec = Buffer.concat([bytes(1, intOrString(2)), bytes(2, selector)]);
    const meta = Buffer.concat([bytes(1, 'web'), bytes(3, 'default')]);
    const pdb = Buffer.concat([bytes(1, meta), bytes(2, spec)]);
    expect(decodeProtobuf(envelope('policy/v1', 'PodDisruptionBudget', pdb))).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        minAvailable: 2,
        selector: {
          matchLabels: { app: 'web' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }],
        },
      },
    });
  });

  it('keeps a budget status zero counters, which policy/v1 always serializes', () => {
    const status = Buffer.concat([varint(3, 0), varint(4, 2)]);
    const pdb = Buffer.concat([bytes(1, bytes(1, 'web')), bytes(3, status)]);
    expect(decodeProtobuf(envelope('policy/v1', 'PodDisruptionBudget', pdb))).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      status: { disruptionsAllowed: 0, currentHealthy: 2 },
    });
  });

  it('refuses a DeleteOptions field it does not model rather than dropping it', () => {
    const options = Buffer.concat([varint(9, 1)]);
    expect(() => decodeProtobuf(envelope('v1', 'DeleteOptions', options))).toThrow(
      'the twin does not decode field 9 of DeleteOptions',
    );
  });
});
