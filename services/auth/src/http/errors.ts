import type { ErrorRequestHandler } from 'express';
import { HttpError } from '@crm/http';
import type { Logger } from '@crm/logging';
import { AccountNotConnected, NeedsOAuth1, NoWebhookRegistered, OwnerUnknown } from '../domain/errors';
import { ConfigurationError, CreditsDepleted, NoAnswer, PlatformFailed, PlatformNotReached, PlatformRejected, RateLimited, UsageCapped } from '../domain/platform-errors';
import { ConnectionFailed, CredentialsRefused } from '../operations/accounts';
import { CommandBusy, CommandConflict, InvalidInput, TryLater } from '../operations/executor';
import { AgentExists, UnknownTeam } from '../adapters/agents';
import { InvalidAgent } from '../operations/agents';
import { InvalidSessionTtl, InvalidSubjectToken, LaunchAgentRefused, LaunchLinkUsed, SignInRefused, TooManyFailedSignIns, WrongEmailOrPassword } from '../operations/sessions';

/** Turns the domain's errors into HTTP answers; anything else goes on to the shared handler (500). */
export function domainErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    next(translate(error, logger));
  };
}

function rateLimited(seconds: number): HttpError {
  return new HttpError(429, 'rate_limited', `the platform rate-limits this call; try again in ${seconds} s`, { 'retry-after': String(seconds) });
}

function translate(error: unknown, logger: Logger): unknown {
  if (error instanceof InvalidSubjectToken) return new HttpError(400, 'invalid_token', error.message);
  if (error instanceof InvalidSessionTtl) return new HttpError(400, 'invalid_request', error.message);
  if (error instanceof SignInRefused) return new HttpError(401, 'invalid_credential', error.message);
  if (error instanceof WrongEmailOrPassword) return new HttpError(401, 'invalid_credential', error.message);
  if (error instanceof LaunchAgentRefused) return new HttpError(400, 'invalid_launch_agent', error.message);
  if (error instanceof InvalidAgent) return new HttpError(400, 'invalid_agent', error.message);
  if (error instanceof AgentExists) return new HttpError(409, 'agent_exists', error.message);
  if (error instanceof UnknownTeam) return new HttpError(400, 'unknown_team', error.message);
  if (error instanceof LaunchLinkUsed) return new HttpError(409, 'launch_link_used', error.message);
  if (error instanceof TooManyFailedSignIns) return new HttpError(429, 'too_many_failures', error.message, { 'retry-after': String(error.retryAfterSeconds) });
  if (error instanceof InvalidInput) return new HttpError(400, 'invalid_input', error.problems.join('; '));
  if (error instanceof CommandConflict) return new HttpError(409, 'idempotency_key_reused', error.message);
  if (error instanceof CommandBusy) return new HttpError(409, 'command_in_progress', error.message, { 'retry-after': '5' });
  if (error instanceof TryLater) return translate(error.reason, logger);
  if (error instanceof RateLimited) return rateLimited(error.retryAfterSeconds());
  if (error instanceof UsageCapped) {
    const seconds = error.resetAt ? Math.max(1, Math.ceil((error.resetAt.getTime() - Date.now()) / 1000)) : null;
    return new HttpError(429, 'usage_capped', error.message, seconds === null ? {} : { 'retry-after': String(seconds) });
  }
  if (error instanceof CreditsDepleted) return new HttpError(503, 'credits_depleted', error.message);
  if (error instanceof AccountNotConnected) return new HttpError(404, 'account_not_connected', error.message);
  if (error instanceof OwnerUnknown) return new HttpError(400, 'owner_unknown', error.message);
  if (error instanceof NoWebhookRegistered) return new HttpError(409, 'no_webhook', error.message);
  if (error instanceof NeedsOAuth1) return new HttpError(409, 'needs_oauth1', error.message);
  if (error instanceof CredentialsRefused) return new HttpError(422, error.code, error.message);
  if (error instanceof ConnectionFailed) return new HttpError(502, 'connection_failed', error.message);
  if (error instanceof ConfigurationError) {
    logger.error('configuration error', { reason: error.message });
    return new HttpError(503, 'configuration_error', error.message);
  }
  if (error instanceof PlatformRejected) {
    const code = error.invalidToken ? 'reconnect_needed' : 'platform_rejected';
    return new HttpError(error.invalidToken ? 409 : 422, code, `the platform refused: ${error.platformMessage}${error.platformCode === null ? '' : ` (platform code ${error.platformCode})`}`);
  }
  if (error instanceof PlatformNotReached || error instanceof PlatformFailed) return new HttpError(503, 'platform_unavailable', error.message, { 'retry-after': '5' });
  if (error instanceof NoAnswer) return new HttpError(504, 'platform_timeout', error.message);
  return error;
}
