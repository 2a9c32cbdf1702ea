import { useId, type ReactNode } from 'react'
import { AxisBottom, AxisLeft } from '@visx/axis'
import { Group } from '@visx/group'
import { scaleBand, scaleLinear } from '@visx/scale'
import { Bar, LinePath } from '@visx/shape'

/**
 * The Overview's charts, drawn as SVG with visx (scales and shapes, no chart runtime of its own):
 * each is an image named by its title and summed up in words, with a table of the same numbers
 * (`table`) for anyone who cannot see it. The sizes are the drawing's own: it scales to its box.
 */
const WIDTH = 640
const MARGIN = { top: 14, right: 16, bottom: 40, left: 48 }
const TEXT = '#1b1f24'
const axisText = { fill: TEXT, fontSize: 17 }
/** Counts are whole: no tick at 0.5 of a visit. */
const wholeTicks = (scale: { ticks: (count: number) => number[] }) => scale.ticks(4).filter(Number.isInteger)

function ChartFigure({ title, summary, height, children, legend, table, testId }: { title: string; summary: string; height: number; children: ReactNode; legend?: ReactNode; table: ReactNode; testId: string }) {
  const id = useId()
  return (
    <figure className="overview-chart" data-testid={testId}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <svg role="img" aria-labelledby={`${id}-title ${id}-summary`} viewBox={`0 0 ${WIDTH} ${height}`} preserveAspectRatio="xMidYMid meet">
        <desc id={`${id}-summary`}>{summary}</desc>
        {children}
      </svg>
      {legend}
      {table}
    </figure>
  )
}

/** Today's check-ins per hour (bars) against the same weekday's average (a line). */
export function ArrivalsChart(props: { today: number[]; average: number[]; hourLabel: (hour: number) => string; title: string; summary: string; todayLabel: string; averageLabel: string; table: ReactNode }) {
  const height = 240
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right
  const innerHeight = height - MARGIN.top - MARGIN.bottom
  const hours = props.today.map((_, hour) => hour)
  const x = scaleBand({ domain: hours, range: [0, innerWidth], padding: 0.2 })
  const y = scaleLinear({ domain: [0, Math.max(1, ...props.today, ...props.average)], range: [innerHeight, 0], nice: true })
  return (
    <ChartFigure
      title={props.title}
      summary={props.summary}
      height={height}
      table={props.table}
      testId="overview-arrivals"
      legend={
        // Words beside each mark, outside the drawing: read at the page's size, never over a bar.
        <p className="overview-legend" aria-hidden="true">
          <span className="swatch-today" /> {props.todayLabel} <span className="swatch-average" /> {props.averageLabel}
        </p>
      }
    >
      <Group left={MARGIN.left} top={MARGIN.top}>
        {hours.map((hour) => (
          <Bar key={hour} className="bar-today" x={x(hour)} y={y(props.today[hour]!)} width={x.bandwidth()} height={innerHeight - y(props.today[hour]!)} />
        ))}
        <LinePath className="line-average" data={hours} x={(hour) => x(hour)! + x.bandwidth() / 2} y={(hour) => y(props.average[hour]!)} />
        <AxisLeft scale={y} tickValues={wholeTicks(y)} tickFormat={(value) => String(value)} tickLabelProps={axisText} stroke={TEXT} tickStroke={TEXT} />
        <AxisBottom top={innerHeight} scale={x} tickValues={hours.filter((hour) => hour % 3 === 0)} tickFormat={props.hourLabel} tickLabelProps={axisText} stroke={TEXT} tickStroke={TEXT} />
      </Group>
    </ChartFigure>
  )
}

/** The busiest hosts, most visited first, as bars across. */
export function HostsChart(props: { hosts: { name: string; visits: number }[]; title: string; summary: string; table: ReactNode }) {
  const row = 40
  const left = 230
  const height = MARGIN.top + MARGIN.bottom + row * Math.max(1, props.hosts.length)
  const innerWidth = WIDTH - left - MARGIN.right
  const names = props.hosts.map((_, i) => i)
  const y = scaleBand({ domain: names, range: [0, row * names.length], padding: 0.25 })
  const x = scaleLinear({ domain: [0, Math.max(1, ...props.hosts.map((host) => host.visits))], range: [0, innerWidth], nice: true })
  const short = (name: string) => (name.length > 22 ? `${name.slice(0, 21)}…` : name)
  return (
    <ChartFigure title={props.title} summary={props.summary} height={height} table={props.table} testId="overview-hosts">
      <Group left={left} top={MARGIN.top}>
        {props.hosts.map((host, i) => (
          <Bar key={i} className="bar-today" x={0} y={y(i)} width={x(host.visits)} height={y.bandwidth()} />
        ))}
        <AxisLeft scale={y} tickFormat={(i) => short(props.hosts[i as number]!.name)} tickLabelProps={axisText} stroke={TEXT} tickStroke={TEXT} />
        <AxisBottom top={row * names.length} scale={x} tickValues={wholeTicks(x)} tickFormat={(value) => String(value)} tickLabelProps={axisText} stroke={TEXT} tickStroke={TEXT} />
      </Group>
    </ChartFigure>
  )
}
