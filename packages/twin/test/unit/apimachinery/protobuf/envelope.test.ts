// Bodies captured from the real kubectl 1.32 (`create namespace`, `create configmap`,
// `auth can-i`, `auth can-i --list`) against the twin, decoded to the JSON their Go types marshal to.
import { describe, expect, it } from 'vitest';
import { decodeProtobuf, ProtobufError } from '../../../../src/apimachinery/protobuf/envelope.js';

const hex = (s: string): Buffer => Buffer.from(s, 'hex');

const createNamespace =
  '6b3873000a0f0a02763112094e616d657370616365121c0a140a0470626e7312001a0022002a0032003800420012001a020a001a002200';
const createConfigMap =
  '6b3873000a0f0a0276311209436f6e6669674d617012280a180a047062636d12001a0470626e7322002a00320038004200120c0a036b6579120576616c75651a002200';
const canI =
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a65637441636365737352657669657712580a100a0012001a0022002a00320038004200123a0a380a0b6b7562652d73797374656d12066372656174651a13636f6f7264696e6174696f6e2e6b38732e696f22002a066c656173657332003a001a08080012001a0020001a002200';
const canIList =
  '6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c657352657669657712230a100a0012001a0022002a0032003800420012090a0764656661756c741a04180022001a002200';

describe('protobuf request bodies', () => {
  it('decodes kubectl create namespace', () => {
    expect(decodeProtobuf(hex(createNamespace))).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'pbns' },
      spec: {},
      status: {},
    });
  });

  it('decodes kubectl create configmap with its data map', () => {
    expect(decodeProtobuf(hex(createConfigMap))).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'pbcm', namespace: 'pbns' },
      data: { key: 'value' },
    });
  });

  it('decodes the access reviews of kubectl auth can-i', () => {
    expect(decodeProtobuf(hex(canI))).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {
        resourceAttributes: {
          namespace: 'kube-system',
          verb: 'create',
          group: 'coordination.k8s.io',
          resource: 'leases',
        },
      },
      status: { allowed: false },
    });
    expect(decodeProtobuf(hex(canIList))).toMatchObject({
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'default' },
      status: { incomplete: false },
    });
  });

  it('refuses data it cannot read instead of dropping it', () => {
    expect(() => decodeProtobuf(hex('7b7d'))).toThrow(
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
    // The Namespace body with an unknown, non-zero field 15 in its ObjectMeta.
    const unknownField = createNamespace
      .replace('0a140a0470626e73', '0a180a0470626e737a026869')
      .replace('121c', '1220');
    expect(() => decodeProtobuf(hex(unknownField))).toThrow(ProtobufError);
    const typeMeta = Buffer.concat([
      hex('0a16'),
      Buffer.from('coordination.k8s.io/v1'),
      hex('1205'),
      Buffer.from('Lease'),
    ]);
    const lease = Buffer.concat([hex('6b3873000a1f'), typeMeta]);
    expect(() => decodeProtobuf(lease)).toThrow(
      /decodes protobuf bodies only for .*not coordination\.k8s\.io\/v1\/Lease; send application\/json/,
    );
  });
});
