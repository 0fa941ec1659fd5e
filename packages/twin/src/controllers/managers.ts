// The field managers the real components write as (the User-Agent prefix their clients send,
// handlers/create.go managerOrUserAgent), recorded in managedFields for the twin's own writes.

export const controllerManager = 'kube-controller-manager';
export const kubeletManager = 'kubelet';
export const schedulerManager = 'kube-scheduler';
/** The apiserver's own loopback writes (the system-namespaces controller's kube-node-lease). */
export const apiServerManager = 'kube-apiserver';

/** The writer of an Event by the component it names as its source. */
export function eventManager(component: string): string {
  switch (component) {
    case 'kubelet':
      return kubeletManager;
    case 'default-scheduler':
      return schedulerManager;
    case 'kube-proxy':
      return 'kube-proxy';
    default:
      return controllerManager;
  }
}
