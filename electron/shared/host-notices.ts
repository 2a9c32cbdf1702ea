import { z } from 'zod'
import { email } from './email'
import { JOB_STATE_MAX_ITEMS, jobCountsSchema, jobErrorSchema, jobFieldsSchema, jobStateSchema, type JobCounts, type JobError, type JobState } from './jobs'

/**
 * What staff see of the host notifications (electron/services/host-notices/README.md): the queue
 * of arrival notices, one per arrival and channel, and the delivery settings. Secrets are
 * write-only: staff see whether each is stored, never its value.
 */

export const noticeChannels = ['email', 'webhook'] as const
export const noticeChannelSchema = z.enum(noticeChannels)
export type NoticeChannel = z.infer<typeof noticeChannelSchema>

/** The one delivery queue's states (jobs.ts): a notice refused for good, or too late to matter, needs attention. */
export const noticeStateSchema = jobStateSchema
export type NoticeState = JobState

export const noticeErrorSchema = jobErrorSchema
export type NoticeError = JobError

/** An arrival notice as staff see it: the queue's fields (jobs.ts) and its own. */
export const hostNoticeSchema = jobFieldsSchema.extend({
  visitId: z.string(),
  channel: noticeChannelSchema,
  /** Whom it tells (the host's name only: the visitor's name stays in the queue). */
  hostName: z.string(),
})
export type HostNotice = z.infer<typeof hostNoticeSchema>

export const noticeCountsSchema = jobCountsSchema
export type NoticeCounts = JobCounts

export const NOTICE_STATE_MAX_ITEMS = JOB_STATE_MAX_ITEMS

export const hostNoticeQueueSchema = z.object({
  running: z.boolean(),
  counts: noticeCountsSchema,
  items: z.array(hostNoticeSchema),
  truncated: z.boolean(),
})
export type HostNoticeQueue = z.infer<typeof hostNoticeQueueSchema>

/** tls: TLS from the first byte (usually port 465); starttls: upgrade required (587); none: plain, for a relay on this machine or network. */
export const smtpSecuritySchema = z.enum(['tls', 'starttls', 'none'])

export const smtpSettingsSchema = z
  .strictObject({
    host: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .regex(/^[A-Za-z0-9.:[\]-]+$/, 'The SMTP host is a name or an address, like smtp.example.com.'),
    port: z.number().int().min(1).max(65_535),
    security: smtpSecuritySchema,
    /** The sender hosts see. */
    from: email,
    /** The SMTP account; null when the server takes mail without signing in. Its password is in the keychain. */
    user: z.string().trim().min(1).max(254).nullable(),
  })
  .superRefine((smtp, context) => {
    // A login over a plain connection sends the password in clear: allowed only to this machine (a local relay).
    const loopback = smtp.host === 'localhost' || smtp.host.startsWith('127.') || smtp.host === '::1' || smtp.host === '[::1]'
    if (smtp.security === 'none' && smtp.user !== null && !loopback) {
      context.addIssue({ code: 'custom', path: ['security'], message: 'A plain connection would send the password in clear: choose TLS or STARTTLS (plain only to this machine).' })
    }
  })
export type SmtpSettings = z.infer<typeof smtpSettingsSchema>

export const hostNoticeSecretStatusSchema = z.object({ smtpPassword: z.boolean(), webhookSecret: z.boolean() })
export type HostNoticeSecretStatus = z.infer<typeof hostNoticeSecretStatusSchema>

export const hostNoticeSettingsSchema = z.object({
  /** null: e-mail is not set up; e-mail notices need attention (NOT_CONFIGURED), queued again once it is. */
  smtp: smtpSettingsSchema.nullable(),
  secrets: hostNoticeSecretStatusSchema,
})
export type HostNoticeSettings = z.infer<typeof hostNoticeSettingsSchema>

export const saveHostNoticeSettingsInput = z.strictObject({ smtp: smtpSettingsSchema.nullable() })

/** Fields left out stay as they are; null removes the secret. */
export const hostNoticeSecretsInput = z.strictObject({
  smtpPassword: z.string().min(1).max(1024).nullable().optional(),
  /** Shared with the webhook receivers, who check each POST's signature with it. */
  webhookSecret: z.string().min(16, 'The signing secret needs at least 16 characters.').max(1024).nullable().optional(),
})
export type HostNoticeSecretsInput = z.infer<typeof hostNoticeSecretsInput>

export const retryHostNoticeInput = z.strictObject({ id: z.uuid() })
