import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeField, emailField, enrollVisitorInput, verifyVisitorInput } from '../../electron/shared/workflows'
import { checkField, emailProblem } from '../../renderer/src/components/field-check'
import { projectRoot } from '../support/process'

const root = join(projectRoot, 'renderer/src')
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx)$/.test(name) ? [path] : []
  })

describe('form fields check with the contract’s own schemas', () => {
  it('the renderer holds no second e-mail or code pattern', () => {
    const copies = sources(root).flatMap((file) => {
      const text = readFileSync(file, 'utf8')
      // A regex literal with an "@" (an e-mail rule) or the contract's code character class.
      const found = [...text.matchAll(/\/\^[^\n/]*(?:@|A-Za-z0-9_\.-)[^\n/]*\$\//g)].map((m) => m[0])
      return found.map((pattern) => `${relative(root, file)}: ${pattern}`)
    })
    expect(copies).toEqual([])
  })

  it('refuses what the services refuse, and says when the field is empty', () => {
    for (const value of ['visitor@example.c', 'a..b@example.com', 'not-an-email', 'name@example']) {
      expect(checkField(emailField, value)).toBe('invalid')
      // The services would refuse the same value (the "Invalid input for verifyVisitor" of old).
      expect(verifyVisitorInput.safeParse({ userId: value, sample: 'x'.repeat(16) }).success).toBe(false)
    }
    expect(checkField(emailField, '  ')).toBe('missing')
    expect(emailProblem('missing')).toMatch(/missing/)
    expect(checkField(emailField, ' camera.visitor@example.com ')).toBeNull()
    expect(enrollVisitorInput.shape.userId.safeParse('camera.visitor@example.com').success).toBe(true)
    expect(checkField(codeField, 'KIOSK_1')).toBeNull()
    expect(checkField(codeField, 'has space')).toBe('invalid')
  })

  it('accepts internationalised addresses, and says which rule an address breaks', () => {
    for (const value of ['jöhn@exämple.com', 'użytkownik@przykład.pl', '用户@例子.广告', 'o’neil@example.ie'.replace('’', "'"), 'x@example.xn--p1ai']) {
      expect(checkField(emailField, value), value).toBeNull()
      expect(verifyVisitorInput.safeParse({ userId: value, sample: 'x'.repeat(16) }).success, value).toBe(true)
    }
    const said = (value: string) => emailProblem(checkField(emailField, value), value)
    expect(said(`${'l'.repeat(300)}@example.com`)).toBe('The part before the @ has 300 characters; it can have at most 64.')
    expect(said(`${'l'.repeat(64)}@${'d'.repeat(200)}.${'e'.repeat(60)}.com`)).toBe('The address has 330 characters; it can have at most 254.')
    expect(said('not-an-email')).toBe('An e-mail address has one @ between the name and the domain, like name@example.com.')
    expect(said('a..b@example.com')).toBe('The part before the @ cannot start or end with a dot, or have two dots in a row.')
    expect(said('name@example')).toBe('The part after the @ must be a domain, like example.com.')
    expect(said('na me@example.com')).toBe('The part before the @ can have letters, digits and . _ \' + - only.')
    // The services refuse with the same words.
    const refused = verifyVisitorInput.safeParse({ userId: `${'l'.repeat(300)}@example.com`, sample: 'x'.repeat(16) })
    expect(refused.success ? null : refused.error.issues[0]?.message).toBe('The part before the @ has 300 characters; it can have at most 64.')
  })
})
