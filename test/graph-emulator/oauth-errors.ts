/**
 * The identity platform's refusals, each with its OAuth 2.0 `error`, HTTP status and AADSTS code,
 * worded after Microsoft's published error reference.
 */
import { OAuthError } from './errors.ts';

const error = (status: number, code: string, aadsts: number, description: string) =>
  new OAuthError(status, code, aadsts, description);

export const oauthErrors = {
  tenantNotFound: (tenant: string) =>
    error(
      400,
      'invalid_request',
      90002,
      `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
    ),
  clientNotFound: (clientId: string, tenant: string) =>
    error(
      400,
      'unauthorized_client',
      700016,
      `Application with identifier '${clientId}' was not found in the directory '${tenant}'.`,
    ),
  noTenant: () =>
    error(
      400,
      'invalid_request',
      50059,
      'No tenant-identifying information found in either the request or implied by any provided credentials.',
    ),
  wrongSecret: () =>
    error(
      401,
      'invalid_client',
      7000215,
      'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
    ),
  scopeNotDefault: (scope: string) =>
    error(
      400,
      'invalid_scope',
      1002012,
      `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
    ),
  unsupportedGrant: () =>
    error(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.'),
  unknownDeviceCode: () =>
    error(
      400,
      'bad_verification_code',
      70000,
      'The device_code sent to the token endpoint was not recognized.',
    ),
  deviceCodeRedeemed: () =>
    error(
      400,
      'invalid_grant',
      54005,
      'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
    ),
  deviceCodeExpired: () =>
    error(
      400,
      'expired_token',
      70020,
      'The provided value for the input parameter device_code is not valid. This device code has expired.',
    ),
  declined: () =>
    error(400, 'authorization_declined', 70000, 'The user declined the sign-in request.'),
  slowDown: () => error(400, 'slow_down', 70016, 'Polling faster than the interval allows.'),
  pending: () =>
    error(
      400,
      'authorization_pending',
      70016,
      'OAuth 2.0 device flow error. Authorization is pending. Continue polling.',
    ),
  unknownRefreshToken: () =>
    error(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.'),
  revokedRefreshToken: () =>
    error(
      400,
      'invalid_grant',
      50173,
      'The provided grant has expired due to it being revoked, a fresh auth token is needed.',
    ),
};
