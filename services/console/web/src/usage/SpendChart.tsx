import { BarChart, CompositeChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import type { Budget } from './api';
import { dollars, warningAmount, type DayPoint } from './model';

const AXIS = { tickFormatter: (value: number) => (Number.isInteger(value) ? `$${value}` : dollars(value)) };

/** The budget's lines, drawn across the month's spend to date: the limit and where the warning comes. */
function budgetLines(budget: Budget | null) {
  if (!budget) return [];
  return [
    { y: warningAmount(budget), label: `Warning at ${dollars(warningAmount(budget))}`, color: 'orange.9' },
    { y: budget.monthlyLimit, label: `Limit ${dollars(budget.monthlyLimit)}`, color: 'red.9' },
  ];
}

/**
 * Spend per day as bars. For one account the month's spend to date is a line beside them, with
 * its budget's limit and warning threshold drawn across (the axis reaches up to them).
 */
export function SpendChart({ points, budget, oneAccount }: { points: DayPoint[]; budget: Budget | null; oneAccount: boolean }) {
  const summary = `${dollars(points.reduce((sum, point) => sum + point.spent, 0))} spent this month`;
  if (!oneAccount) {
    return (
      <figure aria-label={`Spend per day: ${summary}`} style={{ margin: 0 }}>
        <BarChart h={260} data={points} dataKey="day" series={[{ name: 'spent', label: 'Spent that day', color: 'blue.8' }]} valueFormatter={dollars} yAxisProps={AXIS} tickLine="y" withLegend legendProps={{ verticalAlign: 'bottom' }} />
      </figure>
    );
  }
  const lines = budgetLines(budget);
  const top = Math.max(...points.map((point) => point.toDate ?? 0), ...lines.map((line) => line.y), 1);
  return (
    <figure aria-label={`Spend per day and this month's spend to date: ${summary}`} style={{ margin: 0 }}>
      <CompositeChart
        h={260}
        data={points}
        dataKey="day"
        series={[
          { name: 'spent', label: 'Spent that day', color: 'blue.8', type: 'bar' },
          { name: 'toDate', label: 'Month to date', color: 'teal.9', type: 'line' },
        ]}
        referenceLines={lines}
        withDots={false}
        curveType="linear"
        valueFormatter={dollars}
        yAxisProps={{ ...AXIS, domain: [0, Math.ceil(top * 1.1)] }}
        tickLine="y"
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
      />
      {lines.length === 0 && (
        <Text size="sm" c="dimmed">
          This account has no budget: its calls are not limited.
        </Text>
      )}
    </figure>
  );
}
