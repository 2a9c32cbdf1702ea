import { contextBridge, ipcRenderer } from 'electron'
import { EVENT_CHANNEL } from '../shared/events'
import { createKioskApi, ipcChannel } from '../shared/kiosk-api'

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
