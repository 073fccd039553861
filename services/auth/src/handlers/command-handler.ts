import type { SocialCommandPayload } from '@crm/contracts';
import { PermanentFailure, type MessageHandler } from '@crm/messaging';
import { CommandHeld } from '../operations/credit';
import { CommandConflict, InvalidInput, type ActionExecutor } from '../operations/executor';

/**
 * Consumes `auth.commands`: carries the command out (at most once per command id); the
 * executor announces its result through the outbox, with the record of the outcome. What may
 * succeed later (rate limit, platform unreachable, another worker holding the command) is thrown, so the consumer retries it after a delay; on the
 * last attempt it becomes a failed result instead, so every command gets an answer. A command
 * held while the app is out of credit is acknowledged: auth's database keeps it until it is sent.
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
      // Held in auth's database (the app is out of credit): sent from there, in order, once credit is back.
      if (error instanceof CommandHeld) return;
      if (error instanceof CommandConflict || error instanceof InvalidInput) throw new PermanentFailure(error.message);
      throw error;
    }
  };
}
