// Table printers for coordination.k8s.io, from printLease in k/k
// pkg/printers/internalversion/printers.go: NAME, HOLDER (empty when unset), AGE.

import { ageSince } from './age.js';
import type { Printer } from './util.js';
import { ageColumn, nameColumn } from './util.js';
import { asRecord, asString } from '../apimachinery/types.js';

export const coordinationPrinters: Record<string, Printer> = {
  leases: {
    columns: [
      nameColumn,
      {
        name: 'Holder',
        type: 'string',
        description:
          'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
      },
      ageColumn,
    ],
    cells: (lease, now) => [
      lease.metadata.name ?? '',
      asString(asRecord(lease['spec'])['holderIdentity']),
      ageSince(lease.metadata.creationTimestamp, now),
    ],
  },
};
