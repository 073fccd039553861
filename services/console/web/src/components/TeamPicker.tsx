import { Select } from '@mantine/core';
import { useTeams } from '../agents';

/** The team: one of auth's teams (`GET /v1/teams`), by name; its value is the team's id, what ticketing keeps as `team`. */
export function TeamPicker({ value, onChange, label = 'Team' }: { value: string; onChange: (teamId: string) => void; label?: string }) {
  const teams = useTeams();
  const data = teams.map((team) => ({ value: team.id, label: team.name }));
  if (value && !data.some((option) => option.value === value)) data.push({ value, label: value });
  return <Select label={label} data={data} value={value || null} onChange={(picked) => onChange(picked ?? '')} searchable clearable placeholder="No team" nothingFoundMessage="No team by that name" data-testid="team-picker" />;
}
