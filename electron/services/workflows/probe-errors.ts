import type { ErrorCode } from '../../shared/errors'
import { ApiError, faceCode } from '../clients/api-error'

/** A per-input error inside a 200 identify/verify reply, raised as the error it stands for. */
export function itemError(call: string, item: { errorCode?: number | undefined; errorMessage?: string | undefined }): ApiError {
  const code: ErrorCode = faceCode(item.errorCode) ?? 'REJECTED'
  return new ApiError(code, item.errorMessage ?? `The BioEngine could not ${call} this sample (code ${item.errorCode}).`, 200, item.errorCode ?? null)
}
