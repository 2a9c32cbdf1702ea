// Types for before-build.mjs (an electron-builder hook, plain JS so electron-builder can load it).
export declare function headersVersion(nodedir: string): string | null
export default function beforeBuild(): Promise<boolean>
