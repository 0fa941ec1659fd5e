/**
 * A verification is a pure judgement: given what was read on the node (and through the API),
 * it returns evidence, each piece with one verdict line. The inputs are explicit so the engine's
 * verify step can gather them once and call every verification of a list with the same object.
 */
import type { CurlOutcome } from '../core/parse/curl.js';
import type { Metrics } from '../core/parse/prometheus.js';
import type { Evidence } from '../core/run-state.js';
import type { ProbeReads } from '../probes/index.js';
import type { ProbeRead } from '../probes/read.js';
import type { ExpectedServices } from './expected.js';

export interface VerifyScope {
  node: string;
  /** The runbook step the evidence belongs to (`verify`, `verify-back`). */
  step: string;
  /** ISO time the verification runs (evidence read through no probe carries it). */
  now: string;
}

export interface Verification<I> {
  readonly id: string;
  readonly title: string;
  verify(input: I): Evidence[];
}

/** kube-proxy's container log on the node (kubectl logs of its pod), lines oldest first. */
export type LogRead = ProbeRead<readonly string[]>;

export interface ReachabilityTarget {
  kind: 'clusterip' | 'nodeport';
  host: string;
  port: number;
  /** `namespace/name` of the Service behind the port. */
  service: string;
  /** For NodePorts: whether the address is the node's primary one or a secondary one. */
  address?: 'primary' | 'secondary';
}

export interface ReachabilityRead {
  target: ReachabilityTarget;
  /** The node curl ran on. */
  from: string;
  read: ProbeRead<CurlOutcome>;
}

export interface Reachability {
  /** ClusterIP targets that must answer from the node under test. */
  clusterIP: ReachabilityTarget[];
  /** The node's own address:nodePort targets that must answer from it and from the peer. */
  nodePort: ReachabilityTarget[];
  /** Another node to call from, preferably one still on IPVS; absent when there is none. */
  peer?: { node: string; migrated: boolean };
  reads: ReachabilityRead[];
}

export interface CommonVerifyInput extends VerifyScope {
  /** The latest read of each node probe on the node under test. */
  reads: ProbeReads;
  expected: ExpectedServices;
  log: LogRead;
  reachability: Reachability;
}

/** After a cutover. */
export interface NftablesVerifyInput extends CommonVerifyInput {
  metrics: {
    /** The IPVS kube-proxy's metrics, read before the swap (the p99 baseline). */
    baseline?: ProbeRead<Metrics>;
    /** Two reads of the new kube-proxy's metrics, some seconds apart. */
    first?: ProbeRead<Metrics>;
    second?: ProbeRead<Metrics>;
  };
  /** The canary configuration's nftables.syncPeriod, in seconds (default 30). */
  syncPeriodSeconds: number;
}

/** After a rollback. */
export type IpvsVerifyInput = CommonVerifyInput;
