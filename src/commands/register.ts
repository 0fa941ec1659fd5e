/**
 * Registers `/proxy-migrate` with Bolt: parse, find the verb, run it, and turn any error into an
 * ephemeral message with a remedy. Nothing slow happens before the verb's ack.
 */
import type { App, RespondArguments } from '@slack/bolt';
import type { Metrics } from '../adapters/metrics.js';
import type { Foreground } from '../ports/foreground.js';
import { AppError, asAppError, type ErrorCode } from '../errors.js';
import type { Logger } from '../log.js';
import type { ChatMessage } from '../ports/chat.js';
import { errorReply } from '../views/errors.js';
import { fitMessage } from '../views/fit.js';
import { findVerb, parseCommandText } from './parse.js';
import { SLASH_COMMAND, type CommandServices, type Verb, type VerbContext } from './types.js';

/** Errors that mean "the request was wrong", not "the bot failed". */
const USER_ERRORS: readonly ErrorCode[] = [
  'USAGE',
  'UNKNOWN_VERB',
  'UNKNOWN_CLUSTER',
  'CHANNEL_NOT_ALLOWED',
];

/** Every reply is fitted to Slack's limits here, whatever the verb put in it. */
function ephemeral(message: ChatMessage): RespondArguments {
  const fitted = fitMessage(message);
  return {
    response_type: 'ephemeral',
    text: fitted.text,
    ...(fitted.blocks === undefined ? {} : { blocks: fitted.blocks }),
  };
}

/** A schema's refusal (zod) is a request that was wrong, wherever in the verb it surfaced. */
function isValidationError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ZodError';
}

/**
 * What the person is told when a verb fails. Validation that fails after the ack (a schema
 * deeper down, a check that needs the cluster) is a usage error with the verb's usage, never
 * "Something went wrong".
 */
export function commandError(error: unknown, verb: Verb | undefined): AppError {
  const usage = verb === undefined ? undefined : `Usage: ${verb.usage}`;
  if (isValidationError(error)) {
    return new AppError('USAGE', 'That request is not one this command accepts.', {
      remedy: usage ?? 'See /proxy-migrate help.',
      cause: error,
    });
  }
  const appError = asAppError(error);
  if (appError.code === 'USAGE' && usage !== undefined && !appError.remedy.includes(usage)) {
    return new AppError('USAGE', appError.message, {
      remedy: `${appError.remedy} ${usage}`.trim(),
      cause: appError.cause,
    });
  }
  return appError;
}

export interface CommandDeps {
  verbs: readonly Verb[];
  services: CommandServices;
  logger: Logger;
  metrics: Metrics;
  /** The slow part after an ack waits for the other requests' acks (a burst answers first). */
  foreground?: Foreground;
}

export function registerCommands(app: App, deps: CommandDeps): void {
  app.command(SLASH_COMMAND, async ({ command, ack, respond }) => {
    const started = performance.now();
    const parsed = parseCommandText(command.text);
    const verbLabel = deps.verbs.some((v) => v.name === parsed.verb) ? parsed.verb : 'unknown';
    // Made when first used, mostly after the ack: a child logger costs on every request.
    let child: Logger | undefined;
    const log = (): Logger =>
      (child ??= deps.logger.child({
        verb: verbLabel,
        user: command.user_id,
        team: command.team_id,
        channel: command.channel_id,
      }));
    let acked = false;
    const ctx: VerbContext = {
      args: parsed.args,
      request: {
        userId: command.user_id,
        teamId: command.team_id,
        channelId: command.channel_id,
        ...(command.response_url === '' ? {} : { responseUrl: command.response_url }),
      },
      services: deps.services,
      get logger() {
        return log();
      },
      ack: async (message) => {
        acked = true;
        await (message === undefined ? ack() : ack(ephemeral(message)));
        deps.metrics.slackAckSeconds.observe(
          { verb: verbLabel },
          (performance.now() - started) / 1000,
        );
        await deps.foreground?.quiet();
      },
      respond: async (message) => {
        try {
          await respond({ ...ephemeral(message), replace_original: false });
        } catch (error) {
          // response_url allows 5 uses in 30 minutes: past that (or expired) the answer is an
          // ephemeral message in the channel, which only the person sees too.
          log().info({ err: error }, 'response_url refused the reply; posting it in the channel');
          await deps.services.chat
            .postEphemeral(command.channel_id, command.user_id, message)
            .catch((fallbackError: unknown) =>
              log().warn({ err: fallbackError }, 'could not answer the command at all'),
            );
        }
      },
    };
    const verb = deps.verbs.find((v) => v.name === parsed.verb);
    try {
      await findVerb(deps.verbs, parsed.verb).run(ctx);
      deps.metrics.slackCommands.inc({ verb: verbLabel, outcome: 'accepted' });
    } catch (error) {
      const appError = commandError(error, verb);
      const userError = USER_ERRORS.includes(appError.code);
      deps.metrics.slackCommands.inc({
        verb: verbLabel,
        outcome: userError ? 'rejected' : 'failed',
      });
      if (userError) log().info({ code: appError.code }, 'command rejected');
      else log().error({ err: appError, code: appError.code }, 'command failed');
      await (acked ? ctx.respond(errorReply(appError)) : ctx.ack(errorReply(appError)));
    }
  });
}
