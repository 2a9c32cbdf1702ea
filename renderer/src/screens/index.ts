import type { ComponentType } from 'react'
import type { ScreenId } from '../store/navigation'
import { AccountsScreen } from './AccountsScreen'
import { AdminScreen } from './AdminScreen'
import { AuditScreen } from './AuditScreen'
import { CheckInScreen } from './CheckInScreen'
import { CheckOutScreen } from './CheckOutScreen'
import { EnrollScreen } from './EnrollScreen'
import { FaceMatchScreen } from './FaceMatchScreen'
import { HomeScreen } from './HomeScreen'
import { IdentifyScreen } from './IdentifyScreen'
import { InvitesScreen } from './InvitesScreen'
import { KiosksScreen } from './KiosksScreen'
import { OutboxScreen } from './OutboxScreen'
import { PersonsScreen } from './PersonsScreen'
import { SettingsScreen } from './SettingsScreen'
import { VerifyScreen } from './VerifyScreen'
import { VisitsScreen } from './VisitsScreen'
import { WatchlistScreen } from './WatchlistScreen'

/** Every screen of the kiosk, by navigation id. */
export const screenComponents: Record<ScreenId, ComponentType> = {
  home: HomeScreen,
  enroll: EnrollScreen,
  verify: VerifyScreen,
  checkIn: CheckInScreen,
  checkOut: CheckOutScreen,
  identify: IdentifyScreen,
  match: FaceMatchScreen,
  persons: PersonsScreen,
  admin: AdminScreen,
  outbox: OutboxScreen,
  audit: AuditScreen,
  visits: VisitsScreen,
  invites: InvitesScreen,
  settings: SettingsScreen,
  accounts: AccountsScreen,
  kiosks: KiosksScreen,
  watchlist: WatchlistScreen,
}
