import { Badge, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { TicketingSchemas } from '../client';
import { listHref, type View, type WorkspaceState } from './location';

export type ViewCounts = TicketingSchemas['TicketCounts'];

interface ViewLink {
  label: string;
  view: View;
  queue?: string;
  folder?: string;
  count: number | undefined;
}

function CountBadge({ count, tone }: { count: number | undefined; tone?: string }) {
  if (count === undefined) return null;
  return (
    <Badge size="sm" variant={count > 0 ? 'filled' : 'light'} color={count > 0 ? (tone ?? 'dark') : 'gray'} aria-label={`${count} tickets`} data-testid="view-count">
      {count}
    </Badge>
  );
}

/** The views on the left: the agent's, unassigned, breached, all open, and each queue and folder, with live counts. */
export function Views({ state, counts, onPick }: { state: WorkspaceState; counts: ViewCounts | null; onPick: (next: Partial<WorkspaceState>) => void }) {
  const fixed: ViewLink[] = [
    { label: 'My open', view: 'mine', count: counts?.mine },
    { label: 'Unassigned', view: 'unassigned', count: counts?.unassigned },
    { label: 'SLA breached', view: 'breached', count: counts?.breached },
    { label: 'All open', view: 'open', count: counts?.open },
  ];
  const folders: ViewLink[] = (counts?.folders ?? []).map((one) => ({ label: `${one.queue} / ${one.folder}`, view: 'folder', queue: one.queue, folder: one.folder, count: one.count }));
  const isActive = (link: ViewLink) => state.view === link.view && (link.view !== 'folder' || (state.queue === link.queue && state.folder === link.folder));
  const item = (link: ViewLink) => {
    const next = { view: link.view, queue: link.queue ?? '', folder: link.folder ?? '' };
    return (
      <NavLink
        key={`${link.view}:${link.queue ?? ''}/${link.folder ?? ''}`}
        href={listHref({ ...state, ...next })}
        label={link.label}
        active={isActive(link)}
        aria-current={isActive(link) ? 'page' : undefined}
        rightSection={<CountBadge count={link.count} tone={link.view === 'breached' ? 'red.9' : undefined} />}
        onClick={(event) => {
          event.preventDefault();
          onPick(next);
        }}
        data-testid="view"
      />
    );
  };
  return (
    <div style={{ height: '100%' }}>
      <ScrollArea h="100%">
        <Stack gap={0} p="xs">
          <Title order={2} size="h5" px="sm" pb="xs">
            Inbox
          </Title>
          {fixed.map(item)}
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" pt="md" pb={4}>
            Queues and folders
          </Text>
          {folders.length === 0 ? (
            <Text size="sm" c="dimmed" px="sm">
              No open tickets in any folder.
            </Text>
          ) : (
            folders.map(item)
          )}
        </Stack>
      </ScrollArea>
    </div>
  );
}
