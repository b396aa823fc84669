import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { TrafficPoint } from '../../api';

const hour = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short' });

/**
 * The key's calls per bucket by outcome, stacked: succeeded, errors (4xx/5xx answers), rate-limited (429) and
 * refused by IP or origin (403); loaded only with the key detail page.
 */
export default function TrafficChart({ points, unit }: { points: TrafficPoint[]; unit: 'hour' | 'day' }) {
  const format = unit === 'hour' ? hour : day;
  const data = points.map((point) => ({
    label: format.format(new Date(point.at)),
    succeeded: point.requests - point.errors,
    errors: point.errors,
    rateLimited: point.rateLimited,
    refused: point.refused,
  }));
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="label"
      type="stacked"
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      series={[
        { name: 'succeeded', label: 'Succeeded', color: 'indigo.6' },
        { name: 'errors', label: 'Errors (4xx/5xx)', color: 'red.6' },
        { name: 'rateLimited', label: 'Rate-limited (429)', color: 'orange.5' },
        { name: 'refused', label: 'Refused by IP or origin (403)', color: 'gray.6' },
      ]}
      tickLine="y"
      gridAxis="y"
      yAxisProps={{ allowDecimals: false }}
    />
  );
}
