import { describe, expect, it } from 'vitest';
import {
  answered,
  curlMessage,
  curlOutcome,
  writtenStatus,
} from '../../../../src/core/parse/curl.js';
import { clusterIP200, nodePortRefused } from '../../../fixtures/node-outputs.js';

describe('curlOutcome', () => {
  it('reads an HTTP answer from -w %{http_code}', () => {
    const o = curlOutcome(clusterIP200.exitCode, clusterIP200.stdout, clusterIP200.stderr);
    expect(o).toEqual({ kind: 'http', status: 200 });
    expect(answered(o)).toBe(true);
    // A TLS port spoken to in plain HTTP answers 400: still an answer through the dataplane.
    expect(answered(curlOutcome(0, '400', ''))).toBe(true);
  });

  it('reads a refusal (observed curl 8 wording)', () => {
    const o = curlOutcome(nodePortRefused.exitCode, nodePortRefused.stdout, nodePortRefused.stderr);
    expect(o).toEqual({
      kind: 'refused',
      message:
        "curl: (7) Failed to connect to 10.30.1.11 port 30081 after 0 ms: Couldn't connect to server",
    });
    expect(answered(o)).toBe(false);
  });

  it('reads a timeout and the connections that got no HTTP answer', () => {
    expect(
      curlOutcome(28, '000', 'curl: (28) Connection timed out after 5001 milliseconds\n').kind,
    ).toBe('timed-out');
    const dns = curlOutcome(52, '000', 'curl: (52) Empty reply from server\n');
    expect(dns).toEqual({
      kind: 'connected',
      exitCode: 52,
      message: 'curl: (52) Empty reply from server',
    });
    expect(answered(dns)).toBe(true);
    expect(curlOutcome(6, '000', 'curl: (6) Could not resolve host: x\n')).toEqual({
      kind: 'failed',
      exitCode: 6,
      message: 'curl: (6) Could not resolve host: x',
    });
  });

  it('reads the status and the message', () => {
    expect(writtenStatus('body\n503')).toBe(503);
    expect(writtenStatus('')).toBeUndefined();
    expect(curlMessage('  % Total    % Received\r  0     0\ncurl: (7) Failed to connect\n')).toBe(
      'curl: (7) Failed to connect',
    );
    expect(curlOutcome(3, '', '')).toEqual({
      kind: 'failed',
      exitCode: 3,
      message: 'curl exited 3',
    });
  });
});
