// Table printer for policy/v1 PodDisruptionBudgets: the columns and cells of kubectl's
// printPodDisruptionBudget (pkg/printers/internalversion/printers.go).

import { ageSince } from './age.js';
import type { Printer } from './util.js';
import { ageColumn, int, nameColumn } from './util.js';
import { asRecord } from '../apimachinery/types.js';

/** IntOrString.String(): an int prints as a number, a string as itself; unset is N/A. */
function intOrString(value: unknown): string {
  if (typeof value === 'number') return String(Math.trunc(value));
  if (typeof value === 'string') return value;
  return 'N/A';
}

const pdbPrinter: Printer = {
  columns: [
    nameColumn,
    {
      name: 'Min Available',
      type: 'string',
      description: 'The minimum number of pods that must be available.',
    },
    {
      name: 'Max Unavailable',
      type: 'string',
      description: 'The maximum number of pods that may be unavailable.',
    },
    {
      name: 'Allowed Disruptions',
      type: 'integer',
      description: 'Calculated number of pods that may be disrupted at this time.',
    },
    ageColumn,
  ],
  cells(pdb, now) {
    const spec = asRecord(pdb['spec']);
    return [
      pdb.metadata.name ?? '',
      intOrString(spec['minAvailable']),
      intOrString(spec['maxUnavailable']),
      int(asRecord(pdb['status'])['disruptionsAllowed']),
      ageSince(pdb.metadata.creationTimestamp, now),
    ];
  },
};

export const policyPrinters: Record<string, Printer> = { poddisruptionbudgets: pdbPrinter };
