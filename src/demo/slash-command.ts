/** A slash command signed exactly as Slack signs it (v0 HMAC-SHA256 over `v0:ts:body`). */
import { createHmac } from 'node:crypto';

export interface SlashCommand {
  text: string;
  userId: string;
  userName: string;
  channelId: string;
  channelName: string;
  teamId: string;
  responseUrl: string;
}

export async function sendSlashCommand(
  url: string,
  signingSecret: string,
  command: SlashCommand,
): Promise<Response> {
  const body = new URLSearchParams({
    command: '/proxy-migrate',
    text: command.text,
    user_id: command.userId,
    user_name: command.userName,
    channel_id: command.channelId,
    channel_name: command.channelName,
    team_id: command.teamId,
    team_domain: 'demo',
    api_app_id: 'A0DEMO',
    is_enterprise_install: 'false',
    response_url: command.responseUrl,
    trigger_id: `${Date.now()}.demo`,
  }).toString();
  return signedPost(url, signingSecret, body);
}

/** POSTs a form body signed as Slack signs requests (v0 HMAC-SHA256 over `v0:ts:body`). */
export function signedPost(url: string, signingSecret: string, body: string): Promise<Response> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
    body,
  });
}
