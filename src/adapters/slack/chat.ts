/** ChatPort over the Slack Web API: every call maps Slack's failures to AppErrors with remedies. */
import type { WebClient } from '@slack/web-api';
import type { ChatMessage, ChatPort, FileUpload, PostOptions } from '../../ports/chat.js';
import { AppError } from '../../errors.js';
import { slackError } from './errors.js';
import { fitMessage, REPLY_LIMITS } from '../../views/fit.js';

/** Text and blocks as sent: fitted to Slack's limits, so no message is refused for its size. */
function wire(message: ChatMessage): { text: string; blocks?: ChatMessage['blocks'] } {
  const fitted = fitMessage(message, { textMax: REPLY_LIMITS.slackText });
  return {
    text: fitted.text,
    ...(fitted.blocks === undefined ? {} : { blocks: fitted.blocks }),
  };
}

export class SlackChat implements ChatPort {
  constructor(private readonly client: WebClient) {}

  async post(
    channel: string,
    message: ChatMessage,
    options: PostOptions = {},
  ): Promise<{ ts: string }> {
    let ts: string | undefined;
    try {
      const result = await this.client.chat.postMessage({
        channel,
        ...wire(message),
        ...(options.threadTs === undefined ? {} : { thread_ts: options.threadTs }),
        unfurl_links: false,
        unfurl_media: false,
      });
      ts = result.ts;
    } catch (error) {
      throw slackError(error, 'chat.postMessage');
    }
    if (ts === undefined) {
      throw new AppError('SLACK_API_ERROR', 'Slack accepted chat.postMessage but returned no ts.', {
        remedy: 'Check SLACK_API_URL points at the Slack Web API; the bot retries.',
        retryable: true,
      });
    }
    return { ts };
  }

  async update(channel: string, ts: string, message: ChatMessage): Promise<void> {
    try {
      await this.client.chat.update({
        channel,
        ts,
        ...wire(message),
      });
    } catch (error) {
      throw slackError(error, 'chat.update');
    }
  }

  async postEphemeral(
    channel: string,
    user: string,
    message: ChatMessage,
    options: PostOptions = {},
  ): Promise<void> {
    try {
      await this.client.chat.postEphemeral({
        channel,
        user,
        ...wire(message),
        ...(options.threadTs === undefined ? {} : { thread_ts: options.threadTs }),
      });
    } catch (error) {
      throw slackError(error, 'chat.postEphemeral');
    }
  }

  async uploadFile(channel: string, file: FileUpload): Promise<void> {
    try {
      const common = {
        content: file.content,
        filename: file.filename,
        title: file.title,
        ...(file.comment === undefined ? {} : { initial_comment: file.comment }),
      };
      // The SDK's types want a thread-or-channel union, not one object with an optional thread.
      await (file.threadTs === undefined
        ? this.client.filesUploadV2({ ...common, channel_id: channel })
        : this.client.filesUploadV2({ ...common, channel_id: channel, thread_ts: file.threadTs }));
    } catch (error) {
      throw slackError(error, 'files.uploadV2');
    }
  }
}
