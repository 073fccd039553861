import type { SocialCommandPayload } from '@crm/contracts';
import { PermanentFailure, type MessageHandler } from '@crm/messaging';
import { CommandConflict, InvalidInput, type ActionExecutor } from '../operations/executor';

/**
 * Consumes `auth.commands`: carries the command out (at most once per command id); the
 * executor announces its result through the outbox, with the record of the outcome. What may
 * succeed later (rate limit, platform unreachable, another worker holding the command) is thrown, so the consumer retries it after a delay; on the
 * last attempt it becomes a failed result instead, so every command gets an answer.
 */
export function createCommandHandler(deps: { executor: ActionExecutor }): MessageHandler<SocialCommandPayload> {
  return async (envelope, context) => {
    const command = envelope.payload;
    try {
      await deps.executor.execute(
        { commandId: command.commandId, source: 'broker', action: command.action, accountId: command.accountId, input: command.input, context: command.context },
        { final: context.lastAttempt },
      );
    } catch (error) {
      if (error instanceof CommandConflict || error instanceof InvalidInput) throw new PermanentFailure(error.message);
      throw error;
    }
  };
}
