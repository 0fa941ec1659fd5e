/** Kubernetes API failures as AppErrors: what went wrong on which cluster, and what to check. */
import { ApiException } from '@kubernetes/client-node';
import { AppError, isAppError } from '../../errors.js';

interface StatusBody {
  message?: string;
  reason?: string;
}

function statusOf(error: ApiException<unknown>): StatusBody {
  if (typeof error.body === 'string') {
    try {
      return JSON.parse(error.body) as StatusBody;
    } catch {
      return { message: error.body.slice(0, 200) };
    }
  }
  return typeof error.body === 'object' && error.body !== null ? error.body : {};
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ECONNRESET',
  'ETIMEDOUT',
  'EAI_AGAIN',
  // undici (client-node 2's fetch): the peer closed the socket, or the connect timed out.
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Maps anything the client throws for `what` (e.g. "list nodes") on `cluster` to an AppError. */
export function kubeError(error: unknown, cluster: string, what: string): AppError {
  if (isAppError(error)) return error;
  if (error instanceof ApiException) {
    const status = statusOf(error);
    const detail = status.message ?? `HTTP ${error.code}`;
    const at = `Cluster ${cluster}: cannot ${what}`;
    const details = { cluster, what, status: error.code, reason: status.reason };
    switch (error.code) {
      case 401:
        return new AppError('K8S_UNAUTHORIZED', `${at}: the credentials were rejected.`, {
          remedy:
            'Refresh the kubeconfig credentials for this cluster (token, certificate or exec plugin).',
          cause: error,
          details,
        });
      case 403:
        return new AppError('K8S_FORBIDDEN', `${at}: ${detail}`, {
          remedy: 'Grant the bot’s identity the permissions in deploy/rbac.yaml.',
          cause: error,
          details,
        });
      case 404:
        return new AppError('K8S_NOT_FOUND', `${at}: ${detail}`, {
          remedy: 'Check the object exists.',
          cause: error,
          details,
        });
      case 409:
        return new AppError('K8S_CONFLICT', `${at}: ${detail}`, {
          remedy:
            'Someone else changed the object at the same time; the bot re-reads it and retries while the change is still the one planned. If this persists, find the other writer (managedFields in kubectl get -o yaml) and run the step again.',
          retryable: true,
          cause: error,
          details,
        });
      case 429:
        return new AppError('K8S_THROTTLED', `${at}: the API server is throttling requests.`, {
          remedy: 'Wait and retry; the bot backs off on its own.',
          retryable: true,
          cause: error,
          details,
        });
      default:
        // Any other 4xx is the server judging the request itself (400 BadRequest, 422 Invalid, an
        // admission webhook's denial, 413, 415): the same request would get the same answer.
        if (error.code >= 400 && error.code < 500) {
          return new AppError(
            'K8S_REJECTED',
            `${at}: the API server rejected the request (HTTP ${error.code}${status.reason === undefined ? '' : ` ${status.reason}`}): ${detail}`,
            {
              remedy:
                'Not retried: read the server’s reason above. An admission webhook or policy (Kyverno, Gatekeeper) that denies it, or an API server version the bot does not support, are the usual causes.',
              retryable: false,
              cause: error,
              details,
            },
          );
        }
        return new AppError('K8S_API_ERROR', `${at}: ${detail}`, {
          remedy: 'Check the API server’s health; the bot retries server errors.',
          retryable: error.code >= 500,
          cause: error,
          details,
        });
    }
  }
  const err = error as { name?: string; code?: string; type?: string; message?: string };
  // node-fetch (client-node 1.x) rejected an aborted request with an AbortError; undici's fetch
  // (2.x) rejects with the signal's own reason, a DOMException named TimeoutError.
  if (err.name === 'AbortError' || err.name === 'TimeoutError' || err.type === 'aborted') {
    return new AppError('K8S_TIMEOUT', `Cluster ${cluster}: ${what} timed out.`, {
      remedy: 'Check that the API server is reachable and not overloaded; the bot retries.',
      retryable: true,
      cause: error,
      details: { cluster, what },
    });
  }
  const code = err.code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code !== undefined && NETWORK_CODES.has(code)) {
    return new AppError(
      'K8S_UNREACHABLE',
      `Cluster ${cluster}: the API server is unreachable (${code}).`,
      {
        remedy:
          'Check the server address in the kubeconfig, VPN or firewall, and that the API server is up.',
        retryable: true,
        cause: error,
        details: { cluster, what, code },
      },
    );
  }
  return new AppError('K8S_API_ERROR', `Cluster ${cluster}: cannot ${what}.`, {
    remedy: 'Check the bot logs for the underlying error.',
    retryable: true,
    cause: error,
    details: { cluster, what },
  });
}
