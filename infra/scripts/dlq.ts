/**
 * `pnpm dlq list <queue> [limit]`: shows the dead letters of a work queue (left in place).
 * `pnpm dlq replay <queue> [limit]`: moves them back to the queue, attempts reset; at most as
 * many as the DLQ held when it began, so one that fails again is not replayed in a loop.
 * Exit codes: 2 for a usage error, 1 for any other (one line on stderr, e.g. an unknown queue).
 */
import { listDeadLetters, replayDeadLetters } from '@crm/messaging';

async function main(): Promise<void> {
  const [command, queue, limitText] = process.argv.slice(2);
  const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const limit = limitText ? Number(limitText) : undefined;
  if (!queue || !['list', 'replay'].includes(command ?? '') || (limit !== undefined && !(limit > 0))) {
    console.error('usage: pnpm dlq list|replay <work queue, e.g. ticketing.activity> [limit]');
    process.exit(2);
  }
  if (command === 'list') {
    const letters = await listDeadLetters(url, queue, limit);
    if (letters.length === 0) console.log(`${queue}.dlq is empty`);
    for (const letter of letters) {
      console.log(`${letter.failedAt ?? '?'}  ${letter.type ?? '?'}  ${letter.messageId ?? '?'}  attempts=${letter.attempts}  key=${letter.routingKey ?? '?'}\n    ${letter.reason ?? '(no reason recorded)'}`);
    }
  } else {
    const count = await replayDeadLetters(url, queue, limit);
    console.log(`replayed ${count} message(s) from ${queue}.dlq to ${queue}`);
  }
}

main().catch((error: Error) => {
  console.error(`dlq: ${error.message}`);
  process.exit(1);
});
