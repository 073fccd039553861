/**
 * `pnpm dlq list <queue> [limit]`: shows the dead letters of a work queue (left in place).
 * `pnpm dlq replay <queue> [limit]`: moves them back to the queue, attempts reset; at most as
 * many as the DLQ held when it began, so one that fails again is not replayed in a loop.
 * Exit codes: 2 for a usage error, 1 for any other (one line on stderr, e.g. an unknown queue).
 */
import { listDeadLetters, replayDeadLetters } from '@crm/messaging';

const USAGE = `usage: pnpm dlq list|replay <work queue, e.g. ticketing.activity> [limit]
  list    show the queue's dead letters with their reasons (left in place)
  replay  move them back to the queue, attempts reset (progress on stderr)
env: AMQP_URL (default amqp://guest:guest@127.0.0.1:5672; the stack's vhost is /crm)`;

/** A line on stderr every PROGRESS_EVERY messages and at the end, so a long replay shows it is moving. */
const PROGRESS_EVERY = 500;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const [command, queue, limitText] = args;
  const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const limit = limitText ? Number(limitText) : undefined;
  if (!queue || !['list', 'replay'].includes(command ?? '') || (limit !== undefined && !(limit > 0))) {
    console.error(USAGE);
    process.exit(2);
  }
  if (command === 'list') {
    const letters = await listDeadLetters(url, queue, limit);
    if (letters.length === 0) console.log(`${queue}.dlq is empty`);
    for (const letter of letters) {
      console.log(`${letter.failedAt ?? '?'}  ${letter.type ?? '?'}  ${letter.messageId ?? '?'}  attempts=${letter.attempts}  key=${letter.routingKey ?? '?'}\n    ${letter.reason ?? '(no reason recorded)'}`);
    }
  } else {
    const count = await replayDeadLetters(url, queue, limit, (done, total) => {
      if (done % PROGRESS_EVERY === 0 || done === total) console.error(`replay: ${done} of ${total}`);
    });
    console.log(`replayed ${count} message(s) from ${queue}.dlq to ${queue}`);
  }
}

main().catch((error: Error) => {
  console.error(`dlq: ${error.message}`);
  process.exit(1);
});
