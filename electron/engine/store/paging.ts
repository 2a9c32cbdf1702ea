import type { Page } from '../../shared/api-models'
import type { ListQuery } from '../../shared/api-requests'
import { HttpError } from '../http/errors'
import type { Dialect } from '../../records/sql/types'

export type { ListQuery } from '../../shared/api-requests'

export type { Page } from '../../shared/api-models'

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100

/** Sortable fields and the SQL column each maps to. */
const sortColumns = new Map<string, string>(Object.entries({ userId: 'p.user_id', uuid: 'p.uuid', deviceId: 'p.device_id', created: 'p.created', modified: 'p.modified' }))

/** Fields `notEmpty` accepts, each as a SQL condition (Maps: a name like `constructor` must not find Object's). */
const notEmptyConditions = new Map<string, string>(
  Object.entries({
    deviceId: "p.device_id IS NOT NULL AND p.device_id <> ''",
    templates: 'EXISTS (SELECT 1 FROM templates t WHERE t.person_id = p.uuid OR t.person_id = p.user_id)',
    tenants: 'EXISTS (SELECT 1 FROM tenant_persons tp2 WHERE tp2.person_uuid = p.uuid)',
  }),
)

export interface ListSql {
  where: string[]
  params: unknown[]
  orderBy: string
  limit: number
  offset: number
  pageNo: number
  pageSize: number
}

/** Validates the list parameters and turns them into SQL fragments over persons aliased `p`. */
export function listSql(query: ListQuery, dialect: Dialect): ListSql {
  const pageSize = integerParam('pageSize', query.pageSize, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)
  const pageNo = integerParam('pageNo', query.pageNo, 0, 0, 1_000_000)
  const where: string[] = []
  const params: unknown[] = []

  if (query.find !== undefined && query.find !== '') {
    // find: case-insensitive substring of userId or deviceId, or a uuid prefix.
    if (query.find.length > 256) throw new HttpError(400, 'find is longer than 256 characters.')
    const pattern = `%${query.find.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    // SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE.
    const like = dialect === 'postgres' ? 'ILIKE' : 'LIKE'
    where.push(`(p.user_id ${like} ? ESCAPE '\\' OR p.device_id ${like} ? ESCAPE '\\' OR p.uuid ${like} ? ESCAPE '\\')`)
    params.push(pattern, pattern, `${query.find.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
  }
  if (query.notEmpty !== undefined) {
    const condition = notEmptyConditions.get(query.notEmpty)
    if (!condition) throw new HttpError(400, `notEmpty must be one of ${[...notEmptyConditions.keys()].join(', ')}.`)
    where.push(condition)
  }

  let orderBy = 'p.user_id ASC'
  if (query.sort !== undefined && query.sort !== '') {
    const match = /^([+-]?)(\w+)$/.exec(query.sort.replace(/^ /, '+')) // a bare '+' arrives as a space
    const column = match ? sortColumns.get(match[2]!) : undefined
    if (!match || !column) throw new HttpError(400, `sort must be a field name prefixed with + or -: one of ${[...sortColumns.keys()].join(', ')}.`)
    orderBy = `${column} ${match[1] === '-' ? 'DESC' : 'ASC'}, p.uuid ASC`
  }
  return { where, params, orderBy, limit: pageSize, offset: pageNo * pageSize, pageNo, pageSize }
}

export function toPage<T>(content: T[], total: number, sql: ListSql): Page<T> {
  return { content, pageNo: sql.pageNo, pageSize: sql.pageSize, totalElements: total, totalPages: Math.ceil(total / sql.pageSize) }
}

function integerParam(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new HttpError(400, `${name} must be a whole number.`)
  const value = Number(raw)
  if (value < min || value > max) throw new HttpError(400, `${name} must be between ${min} and ${max}.`)
  return value
}
