import type { ErrorRequestHandler } from 'express';
import { Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import { AccountNotConnected, NeedsOAuth1, NoWebhookRegistered, OwnerUnknown } from '../domain/errors';
import { ConfigurationError, CreditsDepleted, NoAnswer, OutOfCredit, PlatformFailed, PlatformNotReached, PlatformRejected, platformRefusalKind, RateLimited, UsageCapped } from '../domain/platform-errors';
import { ConnectionFailed, CredentialsRefused } from '../operations/accounts';
import { CommandBusy, CommandConflict, InvalidInput, TryLater } from '../operations/executor';
import { AgentExists, LastActiveAdmin, UnknownTeam } from '../adapters/agents';
import { AgentNotFound, NotAnAgent, WrongCurrentPassword } from '../operations/agent-changes';
import { InvalidAgent } from '../operations/agents';
import { InvalidSessionTtl, InvalidSubjectToken, LaunchAgentRefused, LaunchLinkUsed, SignInRefused, TooManyFailedSignIns, WrongEmailOrPassword } from '../operations/sessions';

/** Turns the domain's errors into HTTP answers; anything else goes on to the shared handler (500). */
export function domainErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    next(translate(error, logger));
  };
}

function rateLimited(seconds: number): Refusal {
  return new Refusal('rate_limited', 'rate_limited', `the platform rate-limits this call; try again in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
}

function translate(error: unknown, logger: Logger): unknown {
  if (error instanceof InvalidSubjectToken) return new Refusal('invalid', 'invalid_token', error.message);
  if (error instanceof InvalidSessionTtl) return new Refusal('invalid', 'invalid_request', error.message);
  if (error instanceof SignInRefused) return new Refusal('unauthorized', 'invalid_credential', error.message);
  if (error instanceof WrongEmailOrPassword) return new Refusal('unauthorized', 'invalid_credential', error.message);
  if (error instanceof LaunchAgentRefused) return new Refusal('invalid', 'invalid_launch_agent', error.message);
  if (error instanceof InvalidAgent) return new Refusal('invalid', 'invalid_agent', error.message, { fields: Object.entries(error.problems).map(([field, message]) => ({ in: 'body', field, message })) });
  if (error instanceof AgentNotFound) return new Refusal('not_found', 'agent_not_found', error.message);
  if (error instanceof LastActiveAdmin) return new Refusal('conflict', 'last_active_admin', error.message);
  if (error instanceof WrongCurrentPassword) return new Refusal('invalid', 'wrong_current_password', error.message, { fields: [{ in: 'body', field: 'currentPassword', message: error.message }] });
  if (error instanceof NotAnAgent) return new Refusal('forbidden', 'not_an_agent', error.message);
  if (error instanceof AgentExists) return new Refusal('conflict', 'agent_exists', error.message);
  if (error instanceof UnknownTeam) return new Refusal('invalid', 'unknown_team', error.message);
  if (error instanceof LaunchLinkUsed) return new Refusal('conflict', 'launch_link_used', error.message);
  if (error instanceof TooManyFailedSignIns) return new Refusal('rate_limited', 'too_many_failures', error.message, { headers: { 'retry-after': String(error.retryAfterSeconds) } });
  if (error instanceof InvalidInput) return new Refusal('invalid', 'invalid_input', error.problems.join('; '));
  if (error instanceof CommandConflict) return new Refusal('conflict', 'idempotency_key_reused', error.message);
  if (error instanceof CommandBusy) return new Refusal('conflict', 'command_in_progress', error.message, { headers: { 'retry-after': '5' } });
  if (error instanceof TryLater) return translate(error.reason, logger);
  if (error instanceof RateLimited) return rateLimited(error.retryAfterSeconds());
  if (error instanceof UsageCapped) {
    const seconds = error.resetAt ? Math.max(1, Math.ceil((error.resetAt.getTime() - Date.now()) / 1000)) : null;
    return new Refusal('rate_limited', 'usage_capped', error.message, { headers: seconds === null ? {} : { 'retry-after': String(seconds) } });
  }
  if (error instanceof CreditsDepleted) return new Refusal('unavailable', 'credits_depleted', error.message);
  if (error instanceof OutOfCredit) return new Refusal('unavailable', 'out_of_credit', error.message, { headers: { 'retry-after': String(error.retryAfterSeconds) } });
  if (error instanceof AccountNotConnected) return new Refusal('not_found', 'account_not_connected', error.message);
  if (error instanceof OwnerUnknown) return new Refusal('invalid', 'owner_unknown', error.message);
  if (error instanceof NoWebhookRegistered) return new Refusal('conflict', 'no_webhook', error.message);
  if (error instanceof NeedsOAuth1) return new Refusal('conflict', 'needs_oauth1', error.message);
  if (error instanceof CredentialsRefused) return new Refusal('upstream_rejected', error.code, error.message);
  if (error instanceof ConnectionFailed) return new Refusal('upstream_failed', 'connection_failed', error.message);
  if (error instanceof ConfigurationError) {
    logger.error('configuration error', { reason: error.message });
    return new Refusal('unavailable', 'configuration_error', error.message);
  }
  if (error instanceof PlatformRejected) {
    const code = error.invalidToken ? 'reconnect_needed' : 'platform_rejected';
    return new Refusal(platformRefusalKind(error, false), code, `the platform refused: ${error.platformMessage}${error.platformCode === null ? '' : ` (platform code ${error.platformCode})`}`);
  }
  if (error instanceof PlatformNotReached || error instanceof PlatformFailed) return new Refusal('unavailable', 'platform_unavailable', error.message, { headers: { 'retry-after': '5' } });
  if (error instanceof NoAnswer) return new Refusal('upstream_timeout', 'platform_timeout', error.message);
  return error;
}
