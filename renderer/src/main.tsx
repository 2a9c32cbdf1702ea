import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { followInputModality } from './input-modality'
import './styles.css'

followInputModality()
const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
