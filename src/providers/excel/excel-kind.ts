import { Type } from '@sinclair/typebox';
import type { ConnectRequest, LiveProvider, ProviderKind } from '../registry.ts';
import { ExcelProvider } from './excel-provider.ts';
import { excelSource } from './excel-source.ts';
import { clientCredentialTokens } from './graph-tokens.ts';
import type { MicrosoftSettings } from './microsoft-settings.ts';
import { documentOf, workbookRefOf } from './workbook-ref.ts';

/** Excel workbooks as the registry knows them, whether or not this server has Microsoft access. */
export const excelKind: ProviderKind = {
  name: 'excel',
  label: 'Excel',
  requestSchema: Type.Object(
    {
      provider: Type.Literal('excel'),
      drive: Type.Optional(
        Type.String({ minLength: 1, description: "The workbook's drive id in Microsoft Graph." }),
      ),
      item: Type.Optional(
        Type.String({ minLength: 1, description: "The workbook's item id in its drive." }),
      ),
      link: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            'A OneDrive or SharePoint sharing link to the workbook, instead of drive and item.',
        }),
      ),
      tab: Type.Optional(
        Type.String({
          description:
            'The worksheet to serve; the first by default. "*" makes a sheet of every worksheet, named "<name> / <worksheet>".',
        }),
      ),
    },
    { additionalProperties: false, title: 'Excel worksheet' },
  ),
  sourceSchema: Type.Object({
    provider: Type.Literal('excel'),
    drive: Type.String({ description: "The workbook's drive id in Microsoft Graph." }),
    item: Type.String({ description: "The workbook's item id in its drive." }),
    tab: Type.String({ description: "The worksheet's name, as last read." }),
    worksheetId: Type.String({
      description: "The worksheet's id, which finds it when it is renamed.",
    }),
  }),
  statusSchema: Type.Object({
    configured: Type.Boolean(),
    canWrite: Type.Boolean(),
    tenant: Type.Union([Type.String(), Type.Null()], {
      description: 'The Microsoft Entra tenant Sheetport signs in to.',
    }),
  }),
  unconfigured: { configured: false, canWrite: false, tenant: null },
  setupHint:
    'set SHEETPORT_MICROSOFT_TENANT_ID, SHEETPORT_MICROSOFT_CLIENT_ID and SHEETPORT_MICROSOFT_CLIENT_SECRET, as the README explains.',
  signInHint:
    'signing in to Microsoft needs the application (client) id of an app registered in Microsoft Entra: set SHEETPORT_MICROSOFT_CLIENT_ID (and SHEETPORT_MICROSOFT_TENANT_ID, or leave it unset for any account), as the README explains.',
  parseSource(source): ConnectRequest {
    const text = (name: string) => (typeof source[name] === 'string' ? source[name] : undefined);
    const ref = workbookRefOf({ drive: text('drive'), item: text('item'), link: text('link') });
    return { document: documentOf(ref), tab: text('tab') };
  },
  tabOf(source) {
    const excel = excelSource(source);
    return { document: `${excel.drive}/${excel.item}`, id: excel.worksheetId, title: excel.tab };
  },
};

/** Excel access as the application itself (a client secret), when configured; null otherwise. */
export function openExcel(settings: MicrosoftSettings): Promise<LiveProvider | null> {
  const { tenantId, clientId, clientSecret } = settings;
  if (tenantId === undefined || clientId === undefined || clientSecret === undefined) {
    return Promise.resolve(null);
  }
  return Promise.resolve(new ExcelProvider(settings, clientCredentialTokens(settings)));
}
