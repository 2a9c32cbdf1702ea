import { contextBridge, ipcRenderer } from 'electron'
import { EVENT_CHANNEL } from '../shared/events'
import { createKioskApi, ipcChannel } from '../shared/kiosk-api'
import { PRINT_CHANNEL, type PrintResult } from '../shared/shell-print'

// One frozen object of named functions; the renderer never gets ipcRenderer itself.
contextBridge.exposeInMainWorld(
  'kiosk',
  createKioskApi(
    (method, input) => ipcRenderer.invoke(ipcChannel(method), input),
    (listener) => {
      const forward = (_event: Electron.IpcRendererEvent, data: unknown) => listener(data)
      ipcRenderer.on(EVENT_CHANNEL, forward)
      return () => ipcRenderer.off(EVENT_CHANNEL, forward)
    },
  ),
)

// The shell's print (webContents.print in the main process), for the badge and invitations.
contextBridge.exposeInMainWorld('kioskShell', Object.freeze({ print: (): Promise<PrintResult> => ipcRenderer.invoke(PRINT_CHANNEL) as Promise<PrintResult> }))
