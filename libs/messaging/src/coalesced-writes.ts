import { Socket } from 'node:net';

/**
 * amqplib hands its socket every frame on its own, and the socket runs without Nagle's
 * algorithm (noDelay, for latency), so each publish would be a system call and a TCP segment
 * of its own, which the broker then reads on its own too. Corked from the first write of a tick
 * to the end of it, the frames written in one turn of the event loop (amqplib writes out its
 * queued frames in one callback) leave in one write, without waiting for anything.
 *
 * `connection` is amqplib's connection model as amqp-connection-manager hands it over; when
 * its socket is not where amqplib keeps it (another version), frames go out one by one as
 * before.
 */
export function coalesceWrites(connection: unknown): void {
  const socket = (connection as { connection?: { stream?: unknown } } | undefined)?.connection?.stream;
  if (!(socket instanceof Socket)) return;
  const write = socket.write;
  const uncork = () => socket.uncork();
  socket.write = function corkedUntilTheTickEnds(this: Socket, ...args: unknown[]) {
    if (socket.writableCorked === 0) {
      socket.cork();
      process.nextTick(uncork);
    }
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as Socket['write'];
}
