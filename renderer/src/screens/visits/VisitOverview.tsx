import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { kiosk } from '../../bridge/kiosk'
import { DataTable } from '../../components/DataTable'
import { Busy, LoadError } from '../../components/ui'
import { SelectField } from '../staff/controls'
import { useLoad } from '../staff/hooks'
import { ArrivalsChart, HostsChart } from './OverviewCharts'
import { OVERVIEW_WEEKS, overviewFigures, overviewRange, type OverviewFigures, type OverviewWeeks } from './overview-figures'
import './overview.css'

/**
 * Visits → Overview: the front desk's day in charts, from the desk's records (the site's, or the
 * kiosk's own), counted where they are kept; each chart with its numbers as a table. Counted
 * again when `changed` changes (staff ended a visit).
 */
export function VisitOverview({ changed }: { changed: number }) {
  const { t, i18n } = useTranslation('staff')
  const [weeks, setWeeks] = useState<OverviewWeeks>(4)
  const load = useLoad(async () => {
    const now = new Date()
    return { now, weeks, overview: await kiosk.visitOverview(overviewRange(weeks, now)) }
  }, `${weeks}:${changed}`)
  const language = i18n.language
  // Drawn for the weeks the counts were asked for (another choice shows once its counts come).
  const figures = useMemo(() => (load.data ? overviewFigures(load.data.overview, load.data.weeks, load.data.now, language) : null), [load.data, language])

  return (
    <section className="staff-section" aria-labelledby="overview-title" aria-busy={load.loading} data-testid="visit-overview" data-weeks={load.data?.weeks}>
      <h2 id="overview-title">{t('overview.title')}</h2>
      <p className="hint">{t('overview.purpose')}</p>
      <SelectField
        label={t('overview.compare')}
        value={String(weeks)}
        onChange={(e) => setWeeks(Number(e.target.value) as OverviewWeeks)}
        options={OVERVIEW_WEEKS.map((n) => ({ value: String(n), label: t(`overview.weeks_${n}`) }))}
      />
      {load.loading && !load.data ? <Busy label={t('overview.loading')} /> : null}
      {load.error ? <LoadError error={load.error} title={t('overview.loadError')} onRetry={() => void load.reload()} /> : null}
      {figures ? <OverviewBody figures={figures} language={language} /> : null}
    </section>
  )
}

function OverviewBody({ figures, language }: { figures: OverviewFigures; language: string }) {
  const { t } = useTranslation('staff')
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 })
  const hourFormat = new Intl.DateTimeFormat(language, { hour: 'numeric' })
  const hourLabel = (hour: number) => hourFormat.format(new Date(2000, 0, 1, hour))
  const weekday = figures.weekday
  const todayTotal = figures.today.reduce((sum, n) => sum + n, 0)
  const averageTotal = number.format(figures.weekdayAverage.reduce((sum, n) => sum + n, 0))
  const busiest = figures.today.indexOf(Math.max(...figures.today))
  const arrivalsSummary =
    todayTotal === 0 ? t('overview.arrivalsNone', { weekday, average: averageTotal }) : t('overview.arrivalsSummary', { today: todayTotal, busiest: hourLabel(busiest), weekday, average: averageTotal })
  const hours = figures.today.map((_, hour) => hour)
  const top = figures.busiestHosts[0]

  return (
    <>
      <dl className="overview-figures">
        <div>
          <dt>{t('overview.onSiteNow')}</dt>
          <dd data-testid="overview-on-site">{number.format(figures.onSiteNow)}</dd>
        </div>
        <div>
          <dt>{t('overview.visits')}</dt>
          <dd data-testid="overview-visits">{number.format(figures.visits)}</dd>
        </div>
        <div>
          <dt>{t('overview.averageStay')}</dt>
          <dd data-testid="overview-stay">{figures.averageStayMinutes === null ? t('overview.noStay') : t('overview.minutes', { minutes: number.format(Math.round(figures.averageStayMinutes)) })}</dd>
        </div>
      </dl>
      <div className="overview-charts">
        <ArrivalsChart
          today={figures.today}
          average={figures.weekdayAverage}
          hourLabel={hourLabel}
          title={t('overview.arrivalsTitle', { weekday })}
          summary={arrivalsSummary}
          todayLabel={t('overview.today')}
          averageLabel={t('overview.average', { weekday })}
          table={
            <details>
              <summary>{t('overview.asTable')}</summary>
              <DataTable
                caption={t('overview.arrivalsTitle', { weekday })}
                captionHidden
                testId="overview-arrivals-table"
                rows={hours}
                rowKey={String}
                columns={[
                  { header: t('overview.hour'), rowHeader: true, cell: hourLabel },
                  { header: t('overview.today'), cell: (hour) => number.format(figures.today[hour]!) },
                  { header: t('overview.average', { weekday }), cell: (hour) => number.format(figures.weekdayAverage[hour]!) },
                ]}
              />
            </details>
          }
        />
        {top ? (
          <HostsChart
            hosts={figures.busiestHosts}
            title={t('overview.hostsTitle')}
            summary={t('overview.hostsSummary', { name: top.name, visits: number.format(top.visits) })}
            table={
              <details>
                <summary>{t('overview.asTable')}</summary>
                <DataTable
                  caption={t('overview.hostsTitle')}
                  captionHidden
                  testId="overview-hosts-table"
                  rows={figures.busiestHosts}
                  rowKey={(host) => host.hostId}
                  columns={[
                    { header: t('overview.host'), rowHeader: true, cell: (host) => host.name },
                    { header: t('overview.hostVisits'), cell: (host) => number.format(host.visits) },
                  ]}
                />
              </details>
            }
          />
        ) : (
          <p className="hint" data-testid="overview-no-hosts">
            {t('overview.noHosts')}
          </p>
        )}
      </div>
    </>
  )
}
