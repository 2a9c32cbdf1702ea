import { contextBridge, ipcRenderer } from 'electron'
import { createKioskApi, ipcChannel } from '../shared/kiosk-api'

// One frozen object of named functions; the renderer never gets ipcRenderer itself.
contextBridge.exposeInMainWorld(
  'kiosk',
  createKioskApi((method, input) => ipcRenderer.invoke(ipcChannel(method), input)),
)
