// client_golang's Go collector as component-base registers it (legacyregistry): go_gc_duration_seconds,
// go_goroutines, go_info, go_threads and the go_memstats_* families, with the help texts of the
// client_golang each release vendors — v1.19 for Kubernetes 1.31/1.32, v1.22 from 1.33
// (prometheus/client_golang prometheus/go_collector.go). Values are plausible, not measured.

import { type PromWriter, type Sample } from './prom-text.js';
import { atLeast, type Version } from '../versions.js';

/** The Go each release is built with (representative patch levels). */
export function goVersion(v: Version): string {
  if (atLeast(v, 35)) return 'go1.25.1';
  if (atLeast(v, 33)) return 'go1.24.6';
  if (atLeast(v, 32)) return 'go1.23.12';
  return 'go1.22.12';
}

const one = (value: number): Sample[] => [{ labels: {}, value }];

/** go_memstats_* help texts: [name, client_golang v1.19, v1.22 (undefined: not served)]. */
const memstats: readonly (readonly [string, string, string | undefined])[] = [
  [
    'alloc_bytes',
    'Number of bytes allocated and still in use.',
    'Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.',
  ],
  [
    'alloc_bytes_total',
    'Total number of bytes allocated, even if freed.',
    'Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes.',
  ],
  [
    'buck_hash_sys_bytes',
    'Number of bytes used by the profiling bucket hash table.',
    'Number of bytes used by the profiling bucket hash table. Equals to /memory/classes/profiling/buckets:bytes.',
  ],
  [
    'frees_total',
    'Total number of frees.',
    'Total number of heap objects frees. Equals to /gc/heap/frees:objects + /gc/heap/tiny/allocs:objects.',
  ],
  [
    'gc_sys_bytes',
    'Number of bytes used for garbage collection system metadata.',
    'Number of bytes used for garbage collection system metadata. Equals to /memory/classes/metadata/other:bytes.',
  ],
  [
    'heap_alloc_bytes',
    'Number of heap bytes allocated and still in use.',
    'Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes. Equals to /memory/classes/heap/objects:bytes.',
  ],
  [
    'heap_idle_bytes',
    'Number of heap bytes waiting to be used.',
    'Number of heap bytes waiting to be used. Equals to /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.',
  ],
  [
    'heap_inuse_bytes',
    'Number of heap bytes that are in use.',
    'Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes',
  ],
  [
    'heap_objects',
    'Number of allocated objects.',
    'Number of currently allocated objects. Equals to /gc/heap/objects:objects.',
  ],
  [
    'heap_released_bytes',
    'Number of heap bytes released to OS.',
    'Number of heap bytes released to OS. Equals to /memory/classes/heap/released:bytes.',
  ],
  [
    'heap_sys_bytes',
    'Number of heap bytes obtained from system.',
    'Number of heap bytes obtained from system. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes + /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.',
  ],
  [
    'last_gc_time_seconds',
    'Number of seconds since 1970 of last garbage collection.',
    'Number of seconds since 1970 of last garbage collection.',
  ],
  ['lookups_total', 'Total number of pointer lookups.', undefined],
  [
    'mallocs_total',
    'Total number of mallocs.',
    'Total number of heap objects allocated, both live and gc-ed. Semantically a counter version for go_memstats_heap_objects gauge. Equals to /gc/heap/allocs:objects + /gc/heap/tiny/allocs:objects.',
  ],
  [
    'mcache_inuse_bytes',
    'Number of bytes in use by mcache structures.',
    'Number of bytes in use by mcache structures. Equals to /memory/classes/metadata/mcache/inuse:bytes.',
  ],
  [
    'mcache_sys_bytes',
    'Number of bytes used for mcache structures obtained from system.',
    'Number of bytes used for mcache structures obtained from system. Equals to /memory/classes/metadata/mcache/inuse:bytes + /memory/classes/metadata/mcache/free:bytes.',
  ],
  [
    'mspan_inuse_bytes',
    'Number of bytes in use by mspan structures.',
    'Number of bytes in use by mspan structures. Equals to /memory/classes/metadata/mspan/inuse:bytes.',
  ],
  [
    'mspan_sys_bytes',
    'Number of bytes used for mspan structures obtained from system.',
    'Number of bytes used for mspan structures obtained from system. Equals to /memory/classes/metadata/mspan/inuse:bytes + /memory/classes/metadata/mspan/free:bytes.',
  ],
  [
    'next_gc_bytes',
    'Number of heap bytes when next garbage collection will take place.',
    'Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes.',
  ],
  [
    'other_sys_bytes',
    'Number of bytes used for other system allocations.',
    'Number of bytes used for other system allocations. Equals to /memory/classes/other:bytes.',
  ],
  [
    'stack_inuse_bytes',
    'Number of bytes in use by the stack allocator.',
    'Number of bytes obtained from system for stack allocator in non-CGO environments. Equals to /memory/classes/heap/stacks:bytes.',
  ],
  [
    'stack_sys_bytes',
    'Number of bytes obtained from system for stack allocator.',
    'Number of bytes obtained from system for stack allocator. Equals to /memory/classes/heap/stacks:bytes + /memory/classes/os-stacks:bytes.',
  ],
  [
    'sys_bytes',
    'Number of bytes obtained from system.',
    'Number of bytes obtained from system. Equals to /memory/classes/total:byte.',
  ],
];

const counters = new Set(['alloc_bytes_total', 'frees_total', 'lookups_total', 'mallocs_total']);

export function writeGo(
  p: PromWriter,
  v: Version,
  uptime: number,
  services: number,
  now: number,
): void {
  const modern = atLeast(v, 33);
  const gcs = 12 + Math.floor(uptime / 120);
  p.summary(
    'go_gc_duration_seconds',
    modern
      ? 'A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.'
      : 'A summary of the pause duration of garbage collection cycles.',
    [
      {
        labels: {},
        quantiles: [
          [0, 2.1e-5],
          [0.25, 3.9e-5],
          [0.5, 5.2e-5],
          [0.75, 8.1e-5],
          [1, 0.000412],
        ],
        sum: gcs * 6.1e-5,
        count: gcs,
      },
    ],
  );
  p.gauge('go_goroutines', 'Number of goroutines that currently exist.', one(71));
  p.gauge('go_info', 'Information about the Go environment.', [
    { labels: { version: goVersion(v) }, value: 1 },
  ]);
  p.gauge('go_threads', 'Number of OS threads created.', one(11));
  const heap = 8_400_000 + services * 1_900;
  const values: Record<string, number> = {
    alloc_bytes: heap,
    alloc_bytes_total: heap * gcs,
    buck_hash_sys_bytes: 1_470_000,
    frees_total: 41_000 * gcs,
    gc_sys_bytes: 3_900_000,
    heap_alloc_bytes: heap,
    heap_idle_bytes: 6_500_000,
    heap_inuse_bytes: heap + 1_600_000,
    heap_objects: 52_000 + services * 11,
    heap_released_bytes: 2_400_000,
    heap_sys_bytes: heap + 8_100_000,
    last_gc_time_seconds: (now - (uptime % 120) * 1000) / 1000,
    lookups_total: 0,
    mallocs_total: 41_000 * gcs + 52_000 + services * 11,
    mcache_inuse_bytes: 9_600,
    mcache_sys_bytes: 15_600,
    mspan_inuse_bytes: 240_000 + services * 16,
    mspan_sys_bytes: 300_000 + services * 16,
    next_gc_bytes: heap * 2,
    other_sys_bytes: 1_900_000,
    stack_inuse_bytes: 1_048_576,
    stack_sys_bytes: 1_048_576,
    sys_bytes: heap + 19_000_000,
  };
  for (const [name, oldHelp, newHelp] of memstats) {
    const help = modern ? newHelp : oldHelp;
    if (help === undefined) continue;
    const samples = one(values[name] ?? 0);
    if (counters.has(name)) p.counter(`go_memstats_${name}`, help, samples);
    else p.gauge(`go_memstats_${name}`, help, samples);
  }
}
