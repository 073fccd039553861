import { useEffect, useState } from 'react';
import { ActionIcon, Button, Fieldset, Group, MultiSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { errorAt } from '../fieldErrors';
import type { RoutingRule } from '../types';

const KINDS = ['dm_received', 'mention', 'quote_of_account', 'reply_to_account', 'repost_of_account', 'like_of_account', 'follow_of_account', 'unfollow_of_account'];
const splitList = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean);

interface RuleProps {
  rule: RoutingRule;
  index: number;
  count: number;
  errors: Record<string, string>;
  onChange: (rule: RoutingRule) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}

function ListInput({ label, values, error, onChange }: { label: string; values: string[] | undefined; error?: string; onChange: (values: string[] | undefined) => void }) {
  const joined = (values ?? []).join(', ');
  const [text, setText] = useState(joined);
  useEffect(() => setText(joined), [joined]);
  return (
    <TextInput
      label={label}
      description="comma-separated"
      value={text}
      error={error}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={() => {
        const items = splitList(text);
        onChange(items.length ? items : undefined);
      }}
    />
  );
}

function RuleCard({ rule, index, count, errors, onChange, onMove, onRemove }: RuleProps) {
  const at = (path: string) => errorAt(errors, `/routing/rules/${index}${path}`);
  const setWhen = (key: keyof NonNullable<RoutingRule['when']>) => (values: string[] | undefined) => onChange({ ...rule, when: { ...rule.when, [key]: values } });
  return (
    <Paper withBorder p="sm" data-testid="rule">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>
          {index + 1}. {rule.name || 'New rule'}
        </Text>
        <Group gap={4}>
          <ActionIcon variant="default" aria-label={`Move rule ${index + 1} up`} disabled={index === 0} onClick={() => onMove(-1)}>↑</ActionIcon>
          <ActionIcon variant="default" aria-label={`Move rule ${index + 1} down`} disabled={index === count - 1} onClick={() => onMove(1)}>↓</ActionIcon>
          <Button size="xs" color="red.9" variant="outline" onClick={onRemove}>Remove</Button>
        </Group>
      </Group>
      <Group grow align="start">
        <TextInput label="Rule name" value={rule.name} error={at('/name')} onChange={(e) => onChange({ ...rule, name: e.currentTarget.value })} />
        <TextInput label="Queue" value={rule.queue} error={at('/queue')} onChange={(e) => onChange({ ...rule, queue: e.currentTarget.value })} />
        <TextInput label="Folder" value={rule.folder} error={at('/folder')} onChange={(e) => onChange({ ...rule, folder: e.currentTarget.value })} />
      </Group>
      <Group grow align="start" mt="xs">
        <MultiSelect label="Kinds" data={KINDS} value={rule.when?.kinds ?? []} error={at('/when/kinds')} onChange={(values) => setWhen('kinds')(values.length ? values : undefined)} clearable />
        <ListInput label="Keywords" values={rule.when?.keywords} error={at('/when/keywords')} onChange={setWhen('keywords')} />
        <ListInput label="Senders" values={rule.when?.senders} error={at('/when/senders')} onChange={setWhen('senders')} />
        <ListInput label="Languages" values={rule.when?.languages} error={at('/when/languages')} onChange={setWhen('languages')} />
      </Group>
    </Paper>
  );
}

/** The ordered routing rules: the first that matches wins. */
export function RuleList({ rules, errors, onChange }: { rules: RoutingRule[]; errors: Record<string, string>; onChange: (rules: RoutingRule[]) => void }) {
  const move = (index: number, delta: number) => {
    const next = [...rules];
    const [rule] = next.splice(index, 1);
    next.splice(index + delta, 0, rule!);
    onChange(next);
  };
  return (
    <Fieldset legend="Routing rules (the first match wins)">
      <Stack>
        {rules.map((rule, index) => (
          <RuleCard
            key={index}
            rule={rule}
            index={index}
            count={rules.length}
            errors={errors}
            onChange={(changed) => onChange(rules.map((r, i) => (i === index ? changed : r)))}
            onMove={(delta) => move(index, delta)}
            onRemove={() => onChange(rules.filter((_, i) => i !== index))}
          />
        ))}
        <Button variant="outline" onClick={() => onChange([...rules, { name: '', queue: '', folder: 'inbox' }])}>
          Add rule
        </Button>
      </Stack>
    </Fieldset>
  );
}
