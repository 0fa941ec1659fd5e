/**
 * The floor for ack latency: a bare Bolt app (the bot's Bolt version, its HTTP receiver, the
 * same signing secret) whose handlers only ack, with no edge guard, Redis or worker. Run it as
 * its own process, as the bot runs, so both compete for the same machine alike:
 *   node --import tsx test/helpers/bare-bolt.ts   (env SLACK_SIGNING_SECRET, PORT)
 * It prints `listening <port>` once it serves.
 */
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';

const signingSecret = process.env.SLACK_SIGNING_SECRET ?? '';
const port = Number(process.env.PORT ?? '0');

const receiver = new HTTPReceiver({
  signingSecret,
  endpoints: '/slack/events',
  processBeforeResponse: false,
  logLevel: LogLevel.ERROR,
});
const app = new App({
  token: 'xoxb-bare-bolt',
  // Known up front, so Bolt never calls auth.test (there is no Slack to answer it).
  botId: 'B0BOT',
  botUserId: 'U0BOT',
  tokenVerificationEnabled: false,
  receiver,
  logLevel: LogLevel.ERROR,
});
app.command(/.*/, async ({ ack }) => {
  await ack();
});
app.action(/.*/, async ({ ack }) => {
  await ack();
});

const server = await receiver.start(port);
const address = server.address();
process.stdout.write(
  `listening ${typeof address === 'object' && address !== null ? address.port : port}\n`,
);
const stop = (): void => {
  void receiver.stop().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
