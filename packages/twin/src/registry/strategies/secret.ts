// pkg/registry/core/secret/strategy.go with the v1 conversion in front of it: stringData is
// write-only, merged over data (base64) and dropped, as Convert_v1_Secret_To_core_Secret does,
// and an unset type defaults to Opaque (SetDefaults_Secret).

import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord, asString } from '../../apimachinery/types.js';
import type { ResourceStrategy } from '../strategy.js';
import { validateSecret, validateSecretUpdate } from '../validation/secret.js';

function convert(secret: KubeObject): void {
  const stringData = asRecord(secret['stringData']);
  if (Object.keys(stringData).length > 0) {
    const data = { ...asRecord(secret['data']) };
    for (const [k, v] of Object.entries(stringData))
      data[k] = Buffer.from(asString(v), 'utf8').toString('base64');
    secret['data'] = data;
  }
  delete secret['stringData'];
  if ((secret['type'] ?? '') === '') secret['type'] = 'Opaque';
}

export const secretStrategy: ResourceStrategy = {
  prepareForCreate: convert,
  prepareForUpdate: (secret) => convert(secret),
  prepareForSeed: convert,
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
  allowUnconditionalUpdate: true,
};
