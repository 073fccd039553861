import { ActionIcon, Button, Fieldset, Group, NumberInput, Paper, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { errorAt } from '../fieldErrors';
import { DEFAULT_REFERENCE_EXAMPLES, newOrdersDraft, type OrdersDraft } from '../orders';

type Reference = OrdersDraft['references'][number];

function ReferenceRow({ reference, index, errors, onChange, onRemove }: { reference: Reference; index: number; errors: Record<string, string>; onChange: (reference: Reference) => void; onRemove: () => void }) {
  const at = (field: string) => errorAt(errors, `/orders/references/${index}/${field}`);
  return (
    <Paper withBorder p="xs" data-testid="order-reference">
      <Group align="end" wrap="wrap" gap="xs">
        <TextInput
          style={{ flex: '2 1 12rem' }}
          label={`Pattern ${index + 1}`}
          description="a regular expression; (…) captures the order number"
          value={reference.pattern}
          error={at('pattern')}
          onChange={(e) => onChange({ ...reference, pattern: e.currentTarget.value })}
        />
        <TextInput
          style={{ flex: '1 1 8rem' }}
          label={`Task id ${index + 1}`}
          description="$1 is the first capture"
          value={reference.taskId}
          error={at('taskId')}
          onChange={(e) => onChange({ ...reference, taskId: e.currentTarget.value })}
        />
        <ActionIcon variant="default" size="lg" aria-label={`Remove pattern ${index + 1}`} onClick={onRemove}>
          ×
        </ActionIcon>
      </Group>
    </Paper>
  );
}

function ReferenceList({ references, errors, onChange }: { references: Reference[]; errors: Record<string, string>; onChange: (references: Reference[]) => void }) {
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        Order references in messages
      </Text>
      {references.length === 0 && (
        <Text size="sm" data-testid="default-references">
          Defaults in use: they find {DEFAULT_REFERENCE_EXAMPLES.map((example) => `“${example}”`).join(', ')} and the like. Add a pattern to use your own instead.
        </Text>
      )}
      {references.map((reference, index) => (
        <ReferenceRow
          key={index}
          reference={reference}
          index={index}
          errors={errors}
          onChange={(changed) => onChange(references.map((r, i) => (i === index ? changed : r)))}
          onRemove={() => onChange(references.filter((_, i) => i !== index))}
        />
      ))}
      {errorAt(errors, '/orders/references') && !references.length && (
        <Text size="sm" c="red.9">
          {errorAt(errors, '/orders/references')}
        </Text>
      )}
      <Button variant="outline" onClick={() => onChange([...references, { pattern: '', taskId: '$1' }])} style={{ alignSelf: 'start' }}>
        Add pattern
      </Button>
    </Stack>
  );
}

function Rules({ orders, errors, update }: { orders: OrdersDraft; errors: Record<string, string>; update: (rules: OrdersDraft['rules']) => void }) {
  const rules = orders.rules;
  // Mantine gives '' for a cleared field: it stays empty (null), never 0.
  const number = (value: string | number) => (typeof value === 'number' ? value : value.trim() === '' || Number.isNaN(Number(value)) ? null : Number(value));
  return (
    <Stack gap="xs">
      <NumberInput
        label="ETA slip that counts as late (minutes)"
        description="how much later than the first ETA"
        value={rules.slipMinutes ?? ''}
        min={1}
        error={errorAt(errors, '/orders/rules/slipMinutes')}
        onChange={(v) => update({ ...rules, slipMinutes: number(v) })}
        style={{ maxWidth: '24rem' }}
      />
      <Switch label="Raise the ticket's priority one step when the ETA slips that much" checked={rules.raisePriorityOnSlip} onChange={(e) => update({ ...rules, raisePriorityOnSlip: e.currentTarget.checked })} />
      <Switch label="Reopen the ticket as urgent when a delivery fails or is cancelled" checked={rules.reopenOnFailure} onChange={(e) => update({ ...rules, reopenOnFailure: e.currentTarget.checked })} />
      <Switch label="Suggest resolving the ticket when the order is delivered" checked={rules.suggestResolveOnDelivery} onChange={(e) => update({ ...rules, suggestResolveOnDelivery: e.currentTarget.checked })} />
    </Stack>
  );
}

/**
 * The partner configuration's order options: which tracking client the account's orders are
 * at, the patterns that find an order in a message (ticketing's defaults while none), and what
 * an order's changes do to its ticket. Null: off.
 */
export function OrdersConfig({ orders, errors, onChange }: { orders: OrdersDraft | null; errors: Record<string, string>; onChange: (orders: OrdersDraft | null) => void }) {
  return (
    <Fieldset legend="Orders" data-testid="orders-config">
      <Stack gap="sm">
        <Switch
          label="Link tickets to the orders customers name, and follow those orders"
          checked={orders !== null}
          onChange={(e) => onChange(e.currentTarget.checked ? newOrdersDraft() : null)}
        />
        {orders && (
          <>
            <TextInput
              label="Tracking client"
              description="the delivery company's client id in tracking"
              value={orders.trackingClientId}
              error={errorAt(errors, '/orders/trackingClientId')}
              onChange={(e) => onChange({ ...orders, trackingClientId: e.currentTarget.value })}
              style={{ maxWidth: '24rem' }}
            />
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <ReferenceList references={orders.references} errors={errors} onChange={(references) => onChange({ ...orders, references })} />
              <Rules orders={orders} errors={errors} update={(rules) => onChange({ ...orders, rules })} />
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Fieldset>
  );
}
