/**
 * Every pre-flight check, in report order. A new check is a file in this folder (starting with
 * the risk it guards against and where that comes from) plus a line below.
 */
import { alertMetricRename } from './alert-metric-rename.js';
import { configCarryover } from './config-carryover.js';
import { conntrackHeadroom } from './conntrack-headroom.js';
import { conntrackLiberal } from './conntrack-liberal.js';
import { currentMode } from './current-mode.js';
import { ipvsDeprecation } from './ipvs-deprecation.js';
import { ipvsOnlySettings } from './ipvs-only-settings.js';
import { ipvsScheduler } from './ipvs-scheduler.js';
import { kernelVersion } from './kernel-version.js';
import { kubeProxyPresent } from './kube-proxy-present.js';
import { kubeProxyVersion } from './kube-proxy-version.js';
import { localhostNodeport } from './localhost-nodeport.js';
import { managedPlatform } from './managed-platform.js';
import { modeExplicit } from './mode-explicit.js';
import { modeFlagIgnored } from './mode-flag-ignored.js';
import { nftVersion } from './nft-version.js';
import { nodeProbes } from './node-probes.js';
import { nodeSecondaryAddresses } from './node-secondary-addresses.js';
import { nodelocaldns } from './nodelocaldns.js';
import { nodeportAddresses } from './nodeport-addresses.js';
import { serviceScale } from './service-scale.js';
import type { Check } from './types.js';

export const checks: readonly Check[] = [
  kubeProxyPresent,
  nodeProbes,
  currentMode,
  modeExplicit,
  modeFlagIgnored,
  kernelVersion,
  nftVersion,
  kubeProxyVersion,
  ipvsDeprecation,
  nodeportAddresses,
  nodeSecondaryAddresses,
  localhostNodeport,
  conntrackLiberal,
  conntrackHeadroom,
  alertMetricRename,
  serviceScale,
  nodelocaldns,
  ipvsScheduler,
  ipvsOnlySettings,
  configCarryover,
  managedPlatform,
];

/** The public check ids, for `--suppress` validation and docs. */
export const checkIds: readonly string[] = checks.map((c) => c.id);
