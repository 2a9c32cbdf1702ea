import { builtinModules } from 'node:module'
import js from '@eslint/js'
import globals from 'globals'
import i18next from 'eslint-plugin-i18next'
import tseslint from 'typescript-eslint'

const nodeBuiltins = [...builtinModules.filter((m) => !m.startsWith('_')), ...builtinModules.map((m) => `node:${m}`)]
const noElectron = { name: 'electron', message: "Only electron/main and electron/preload may import 'electron'; this code must run in plain Node." }
// Any relative import that passes through a folder named `dir` (electron/<dir>/...).
const layer = (dir, message) => ({ regex: `^\\.\\.?/(.*/)?${dir}(/|$)`, message })
// @shared/… is electron/shared as the renderer imports it (tsconfig.base.json paths, the Vite and
// Vitest aliases). Node code runs under tsx and Playwright, which do not resolve it.
const noAlias = { regex: '^@shared(/|$)', message: 'Only the renderer imports electron/shared as @shared/…; Node code imports it by a relative path.' }
const aliasStaysShared = { regex: '^@shared/(.*/)?\\.\\.(/|$)', message: '@shared/… reaches electron/shared only.' }

/**
 * Import boundaries: the folders and runtimes of docs/architecture.md.
 * test/unit/import-boundaries.test.ts proves these rules fire, so a config slip cannot silently
 * switch them off.
 */
export const boundaries = [
  {
    files: ['electron/services/**', 'electron/engine/**', 'electron/records/**', 'electron/host/**', 'electron/site/**', 'electron/shared/**', 'test/**', 'scripts/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noAlias] }] },
  },
  {
    files: ['electron/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron, ...nodeBuiltins.map((name) => ({ name, message: 'electron/shared runs everywhere: no Node built-ins.' }))], patterns: [{ regex: '^\\.\\./', message: 'electron/shared imports nothing else of the project.' }, noAlias] }],
    },
  },
  {
    files: ['electron/services/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [layer('engine', 'services reach the engine over HTTP, never by import.'), layer('main', 'services must not depend on the Electron shell.'), layer('host', 'services must not depend on the web host.'), layer('preload', 'services must not depend on the preload.'), noAlias] }] },
  },
  {
    files: ['electron/engine/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [layer('services', 'the engine is a separate server: it never imports the kiosk services.'), layer('main', 'the engine must not depend on the Electron shell.'), layer('host', 'the engine must not depend on the web host.'), layer('preload', 'the engine must not depend on the preload.'), noAlias] }] },
  },
  {
    // The records layer (repositories, migrations, the front desk's rules) sits under the engine,
    // the services and the site alike: it imports electron/shared and itself, nothing above it.
    files: ['electron/records/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [...['engine', 'services', 'site', 'host', 'main', 'preload', 'renderer'].map((dir) => layer(dir, 'electron/records imports electron/shared and itself only: the engine, services and site import it, never the reverse.')), noAlias] },
      ],
    },
  },
  {
    // The site runs the engine as processes and talks to them over HTTP; it is plain Node.
    files: ['electron/site/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [layer('engine', 'the site runs engines as processes, never by import.'), layer('services', 'the site does not depend on the kiosk services.'), layer('main', 'the site must not depend on the Electron shell.'), layer('host', 'the site must not depend on the web host.'), layer('preload', 'the site must not depend on the preload.'), noAlias] }] },
  },
  {
    // The Electron shell may import anything of the project; its bundle has no alias.
    files: ['electron/main/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noAlias] }] },
  },
  {
    files: ['electron/preload/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [layer('main', 'preload imports electron/shared only.'), layer('services', 'preload imports electron/shared only.'), layer('engine', 'preload imports electron/shared only.'), layer('host', 'preload imports electron/shared only.'), layer('records', 'preload imports electron/shared only.'), noAlias] }] },
  },
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, ...nodeBuiltins.map((name) => ({ name, message: 'The renderer is a sandboxed browser page: no Node built-ins.' }))],
          patterns: [...['main', 'preload', 'services', 'engine', 'host', 'records'].map((dir) => layer(dir, 'The renderer imports electron/shared only and reaches everything else through window.kiosk.')), aliasStaysShared],
        },
      ],
    },
  },
]

/** Every renderer file a visitor's screens render (staff-only screens may stay English for now). */
export const visitorFacing = [
  'renderer/src/App.tsx',
  'renderer/src/screens/{HomeScreen,EnrollScreen,VerifyScreen,CheckInScreen,CheckOutScreen,ScreenFrame}.tsx',
  'renderer/src/screens/visits/{EnrollCheckIn,HostFields,VisitOutcome}.tsx',
  'renderer/src/components/{GuidedCapture,LivenessCheck,LivenessResult,CaptureThumbnails,StillThereDialog,OfflineBanner,OfflineDecision,StatusBar,NavBar,LanguageChoice,OrgBrand,ui}.tsx',
  'renderer/src/frontdesk/{Badge,PrintableBadge,InviteScanner}.tsx',
]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'test/fixtures/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { ignores: ['renderer/**'], languageOptions: { globals: { ...globals.node } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  { files: ['renderer/**'], languageOptions: { globals: { ...globals.browser } } },
  // Tests read JSON replies loosely and pin them down with assertions.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  ...boundaries,
  {
    // What a visitor reads comes from the translations (renderer/src/i18n), never from a literal:
    // words in JSX text or in a wording attribute fail here.
    files: visitorFacing,
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': ['error', { mode: 'jsx-only', 'should-validate-template': true, 'jsx-attributes': { include: ['title', 'label', 'alt', 'aria-label', 'placeholder', 'hint', 'purpose'] } }],
    },
  },
)
