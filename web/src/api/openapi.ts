// Generated from the server's OpenAPI document by `npm run api-types`; do not edit.

export interface paths {
  '/api/v1/{sheetId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Stream the row events of a sheet (server-sent events)
     * @description A `text/event-stream` of `rows.created`, `rows.updated` and `rows.deleted` events, one per committed write, and `columns.changed` when a spreadsheet's header changes: `id:` the event id, `event:` its type, `data:` its JSON (the same body webhooks deliver). Starts after the newest event, or after the `Last-Event-ID` header when resuming; a `Last-Event-ID` unknown or past the retention starts at the present with a `reset` event (read the rows again). A comment line every 15 s keeps it open. Needs the read scope on a private sheet; ends when that access goes. 429 `too-many-streams` past the streams allowed per address, 503 `streams-unavailable` past those of the server.
     */
    get: operations['streamEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/{sheetId}/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This sheet's own OpenAPI document, its rows typed by what its cells hold
     * @description An OpenAPI 3.1 document of this sheet's row API: a `Row` schema with each column and the types its cells hold now (number, text, boolean, dates and times as text, and null), each column as a filter parameter, and the bodies of POST, PUT, PATCH and upsert. The types follow edits. `npx openapi-typescript <this URL> -o sheet.d.ts` makes the types of a typed client. Access is that of a read of the rows.
     */
    get: operations['describeSheetApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/{sheetId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read rows, optionally filtered, sorted and paged
     * @description Filters, as any other parameter: <column>=<text> (equality), <column>=Jo* (wildcard), <column>=__<op>(<value>) with op one of eq, ne, gt, ge, lt, le, ieq, ilike, <column>=__in(a,b) and __nin(a,b) (a value holding , ( ) or " in double quotes, "" for a quote).
     */
    get: operations['readRows'];
    /**
     * Replace the chosen rows whole; columns left out become empty
     * @description Filters, as any other parameter: <column>=<text> (equality), <column>=Jo* (wildcard), <column>=__<op>(<value>) with op one of eq, ne, gt, ge, lt, le, ieq, ilike, <column>=__in(a,b) and __nin(a,b) (a value holding , ( ) or " in double quotes, "" for a quote).
     */
    put: operations['replaceRows'];
    /**
     * Append one row (object) or several (array), atomically; with _upsert, insert or update by a key column
     * @description With `_upsert=<column>`, each body row updates (as PATCH) every row whose `<column>` equals its own value (the equality of `<column>=<value>`: `*` is literal), or is appended when none does; body rows apply in order, in one atomic write. Answers `{"created","updated"}` (updated counts existing rows changed), 201 when a row was created, else 200. A body row without a value in the column answers 400 `upsert-key-missing`; an unknown column 400 `unknown-column`. A key needs the `create` scope; with `_upsert` also `update` and `read` (403 `forbidden` names the one missing).
     */
    post: operations['appendRows'];
    /**
     * Delete the chosen rows; rows below move up
     * @description Filters, as any other parameter: <column>=<text> (equality), <column>=Jo* (wildcard), <column>=__<op>(<value>) with op one of eq, ne, gt, ge, lt, le, ieq, ilike, <column>=__in(a,b) and __nin(a,b) (a value holding , ( ) or " in double quotes, "" for a quote).
     */
    delete: operations['deleteRows'];
    options?: never;
    head?: never;
    /**
     * Change only the columns sent in the chosen rows; a body of {} answers 400
     * @description Filters, as any other parameter: <column>=<text> (equality), <column>=Jo* (wildcard), <column>=__<op>(<value>) with op one of eq, ne, gt, ge, lt, le, ieq, ilike, <column>=__in(a,b) and __nin(a,b) (a value holding , ( ) or " in double quotes, "" for a quote).
     */
    patch: operations['patchRows'];
    trace?: never;
  };
  '/api/v1/{sheetId}/rows/{key}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one row by its key
     * @description The row with this key, wherever it is now, as one object starting with `_key` (after `_id` with `_with_id=true`). Its `ETag` is the row's own: it changes exactly when the row's cells change, and `If-Match` with it on a write of the row answers 412 only when that row changed since.
     */
    get: operations['readRow'];
    /**
     * Replace one row by its key, whole
     * @description As the same method with `?_key=<key>`: 404 `row-not-found` once the row is gone, and nothing changes. `If-Match` takes the row's ETag (from GET of the row) or the sheet's. A `_key` in the body must be this key.
     */
    put: operations['replaceRow'];
    post?: never;
    /**
     * Delete one row by its key
     * @description As the same method with `?_key=<key>`: 404 `row-not-found` once the row is gone, and nothing changes. `If-Match` takes the row's ETag (from GET of the row) or the sheet's. A `_key` in the body must be this key.
     */
    delete: operations['deleteRow'];
    options?: never;
    head?: never;
    /**
     * Change only the columns sent in one row, by its key
     * @description As the same method with `?_key=<key>`: 404 `row-not-found` once the row is gone, and nothing changes. `If-Match` takes the row's ETag (from GET of the row) or the sheet's. A `_key` in the body must be this key.
     */
    patch: operations['patchRow'];
    trace?: never;
  };
  '/api/v1/{sheetId}/query': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read rows, as GET /api/v1/{sheetId} does
     * @description Filters, as any other parameter: <column>=<text> (equality), <column>=Jo* (wildcard), <column>=__<op>(<value>) with op one of eq, ne, gt, ge, lt, le, ieq, ilike, <column>=__in(a,b) and __nin(a,b) (a value holding , ( ) or " in double quotes, "" for a quote).
     */
    get: operations['queryRows'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List sheets */
    get: operations['listSheets'];
    put?: never;
    /** Create a sheet: from scratch or from a provider's spreadsheet (JSON), or from an uploaded CSV/XLSX file (multipart); tab=* makes one per tab */
    post: operations['createSheet'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Describe a sheet */
    get: operations['getSheet'];
    put?: never;
    post?: never;
    /** Remove a sheet and all its rows (the spreadsheet it mirrors is left alone) */
    delete: operations['deleteSheet'];
    options?: never;
    head?: never;
    /** Rename a sheet or change its settings */
    patch: operations['updateSheet'];
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Re-read a sheet from the spreadsheet it mirrors, now */
    post: operations['refreshSheet'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List a sheet's API keys, without their secrets */
    get: operations['listApiKeys'];
    put?: never;
    /** Create an API key for a sheet (its secret is in this answer only) */
    post: operations['createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/keys/{keyId}/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace an API key with a new one of the same scopes and name
     * @description The new key is in this answer only. The old one works on for `overlapSeconds` (a day by default; 0 revokes it now), never longer than it would have. A key is rotated once: rotate its successor next.
     */
    post: operations['rotateApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Revoke an API key, at once */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List a sheet's webhooks, without their secrets */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Send a sheet's row events to a URL
     * @description Deliveries follow Standard Webhooks: a POST of the event JSON with `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the decoded secret. A 2xx within 10 s delivers; anything else is retried with backoff for a day; 410 switches the webhook off. Destinations on loopback, private or link-local addresses are refused.
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/webhooks/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a webhook: nothing more is sent to it */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/webhooks/{webhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace a webhook's signing secret (the new one is in this answer only)
     * @description For `overlapSeconds` (a day by default; 0 for none) deliveries carry two signatures, `webhook-signature: v1,<new> v1,<old>`, so a receiver verifies with either secret while it switches; then only the new one. Rotating again within an overlap drops the oldest secret.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sheets/{sheetId}/webhooks/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A webhook's recent delivery attempts, newest first */
    get: operations['listDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/providers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Which spreadsheet services this server can reach, and as whom */
    get: operations['getProviders'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/providers/{provider}/sign-in': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Where the provider's sign-in stands */
    get: operations['getProviderSignIn'];
    put?: never;
    /**
     * Start signing in to a provider as a user (device code)
     * @description Answers a code for the person to enter at `verificationUri`; the server then waits for the sign-in in the background (see the GET). A sign-in under way is replaced.
     */
    post: operations['startProviderSignIn'];
    /** Sign out of a provider: forget the kept sign-in, or stop one under way */
    delete: operations['signOutProvider'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description RFC 9457 problem document. */
    Problem: {
      type: string;
      title: string;
      status: number;
      detail: string;
      /** @description Stable, machine-readable error code. */
      code: string;
      instance?: string;
    } & {
      [key: string]: unknown;
    };
    Sheet: {
      id: string;
      name: string;
      columns: string[];
      rowCount: number;
      /** @description Where the rows came from. */
      source:
        | {
            /** @enum {string} */
            provider: 'scratch';
          }
        | {
            /** @enum {string} */
            provider: 'upload';
            fileName: string;
            /** @description csv for any delimited text file (.csv, .tsv, .txt). */
            format: 'csv' | 'xlsx';
            /** @description The worksheet of a workbook. */
            tab?: string;
            /** @description The field delimiter a CSV file was read with, given or detected. */
            delimiter?: string;
            /** @description The text encoding a CSV file was read with, given or detected: utf-8, utf-16le, utf-16be, windows-1252, ... */
            encoding?: string;
            /** @description The decimal mark a CSV file was read with, given or decided from the whole file. */
            decimal?: '.' | ',';
          }
        | {
            /** @enum {string} */
            provider: 'google';
            spreadsheetId: string;
            tab: string;
            tabId: number;
          }
        | {
            /** @enum {string} */
            provider: 'excel';
            /** @description The workbook's drive id in Microsoft Graph. */
            drive: string;
            /** @description The workbook's item id in its drive. */
            item: string;
            /** @description The worksheet's name, as last read. */
            tab: string;
            /** @description The worksheet's id, which finds it when it is renamed. */
            worksheetId: string;
          };
      /**
       * Format: date-time
       * @description When the mirrored tab (known by its id) was found gone from its spreadsheet: reads serve the rows last read from it, and writes answer 409 tab-gone until it is back.
       */
      tabGone?: string;
      settings: {
        deleteEnabled: boolean;
        /** @description open: no key needed; public-read: reads need no key, writes do; private: every request needs a key. */
        access: 'open' | 'public-read' | 'private';
        allowedOrigins: string[];
        freshnessSeconds?: number;
        watch?: boolean;
        watchIntervalSeconds?: number;
        textColumns?: string[];
      };
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    /** @description The settings to change, and only those. */
    SheetPatch: {
      name?: string;
      deleteEnabled?: boolean;
      /** @description How old, in seconds, the copy of a mirrored spreadsheet may be before it is re-read. */
      freshnessSeconds?: number;
      /** @description For sheets connected to a spreadsheet service: true checks the spreadsheet for changes on a schedule, false never; null (the default) while the sheet has a webhook on or an event stream opened with a key. */
      watch?: boolean | null;
      /** @description How often, in seconds, a watched sheet is checked; null for the server's interval (SHEETPORT_WATCH_INTERVAL_SECONDS). */
      watchIntervalSeconds?: number | null;
      /** @description open: no key needed; public-read: reads need no key, writes do; private: every request needs a key. */
      access?: 'open' | 'public-read' | 'private';
      /** @description Origins whose pages may call the row API from a browser. */
      allowedOrigins?: string[];
      /** @description The columns whose every cell is text, such as codes (007, 1001): the whole list. A column added to it has its stored numbers turned into the text they show; a column taken off it keeps its cells as they are, and later writes are typed as usual. */
      textColumns?: string[];
    };
    /** @description Sheets made from every tab at once (tab=*). */
    SheetsCreated: {
      sheets: components['schemas']['Sheet'][];
      skipped: {
        tab: string;
        /** @description Why it was left out: its header row is not usable, or (a provider's tab) a sheet already mirrors it. */
        reason: string;
        /** @description The sheet that already mirrors the tab. */
        sheet?: {
          id: string;
          name: string;
        };
      }[];
    };
    /** @description An API key, without its secret. */
    ApiKey: {
      id: string;
      name: string;
      scopes: ('read' | 'create' | 'update' | 'delete')[];
      /** Format: date-time */
      createdAt: string;
      /** @description When the key stops working; null for never. */
      expiresAt: string | null;
      /** @description The key that replaced this one when it was rotated. */
      rotatedTo: string | null;
      /** @description The key this one replaced, when it was made by a rotation. */
      replaces: string | null;
    };
    /** @description A key as created or rotated: the only answer with its secret. */
    NewApiKey: components['schemas']['ApiKey'] & {
      /** @description The key itself: shown once, when created. */
      key: string;
    };
    /** @description A webhook, without its signing secret. */
    Webhook: {
      id: string;
      url: string;
      events: ('rows.created' | 'rows.updated' | 'rows.deleted' | 'columns.changed')[];
      /** Format: date-time */
      createdAt: string;
      /** @description Until when deliveries are also signed with the secret before the last rotation. */
      previousSecretExpiresAt: string | null;
      disabledAt?: string | null;
      disabledReason?: string | null;
    };
    /** @description A webhook as created or given a new secret. */
    NewWebhook: components['schemas']['Webhook'] & {
      /** @description The signing secret (`whsec_…`): shown once, when created or rotated. */
      secret: string;
    };
    /** @description One attempt to deliver an event to a webhook. */
    WebhookDelivery: {
      eventId: string;
      type: string;
      attempt: number;
      status: number | null;
      error: string | null;
      nextRetryAt: string | null;
      at: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  streamEvents: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The stream */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many event streams open from this address (`too-many-streams`); see `Retry-After`. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server has no room for another event stream (`streams-unavailable`), is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  describeSheetApi: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI document of this sheet */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  readRows: {
    parameters: {
      query?: {
        _id?: string;
        /** @description At most this many rows. */
        _limit?: number;
        /** @description Skip this many rows first. */
        _offset?: number;
        /** @description Row keys (as `_key` answers them), separated by commas: the rows with these keys, wherever they are now. Every key must name a row, or 404 `row-not-found` and nothing changes. Not with `_id` or filters. */
        _key?: string;
        /** @description true: each row carries its position as "_id", first. */
        _with_id?: string;
        /** @description true: each row carries its key as "_key" (text), first, or after "_id"; CSV and XLSX answers get a _key column. A key stays with its row while rows above it come and go, and is never given to another row of the sheet. 400 when the sheet has a column named _key. */
        _with_key?: string;
        /** @description Columns to sort by, "-" for descending: name,-age. With _group, group columns and aggregate expressions: -sum(price),city. */
        _sort?: string;
        /** @description The columns each row carries, in this order: name,email */
        _fields?: string;
        /** @description Filters separated by |, each written as <column>=<value>: rows where at least one holds (city=Oslo|age=__gt(40)). \| is a literal |, \\ a backslash, \= an = in a column name. May be repeated: each must hold. */
        _or?: string | string[];
        /** @description Rows where some cell's text contains this text, ignoring case (Unicode case folding: ÉCOLE finds école); never column names. ANDed with the filters. */
        _q?: string;
        /** @description Answer one object per group of rows with equal cells in these columns (city,year), in the order of each group's first row; empty cells group under null; 31 and "31" are different groups. Without _agg, the distinct groups. \, is a comma, \( and \) parentheses, \\ a backslash in a column name. _sort then takes group columns and aggregates (-sum(price)), _limit and _offset page groups; _fields does not apply. */
        _group?: string;
        /** @description Aggregates of each group (or of all chosen rows, as one object, without _group), each under its expression as written: count([column]), count_distinct(column), sum(column), avg(column), min(column), max(column). count() counts rows, count(column) non-empty cells; sum, avg, min and max read number cells only and answer null where a group has none. */
        _agg?: string;
      };
      header?: never;
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rows in sheet order (or _sort order); CSV with Accept: text/csv; an XLSX workbook (header row, typed cells) with Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: string | number | boolean | null;
          }[];
          'text/csv': string;
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': string;
        };
      };
      /** @description Not modified: If-None-Match names the current version. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  replaceRows: {
    parameters: {
      query?: {
        /** @description Zero-based row position, or several separated by commas. */
        _id?: string;
        /** @description Row keys (as `_key` answers them), separated by commas: the rows with these keys, wherever they are now. Every key must name a row, or 404 `row-not-found` and nothing changes. Not with `_id` or filters. */
        _key?: string;
        /** @description Filters separated by |, each written as <column>=<value>: rows where at least one holds (city=Oslo|age=__gt(40)). \| is a literal |, \\ a backslash, \= an = in a column name. May be repeated: each must hold. */
        _or?: string | string[];
        /** @description Rows where some cell's text contains this text, ignoring case (Unicode case folding: ÉCOLE finds école); never column names. ANDed with the filters. */
        _q?: string;
      };
      header?: {
        /** @description Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best. */
        'idempotency-key'?: string;
      };
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    /** @description A row: column name to cell value. */
    requestBody: {
      content: {
        'application/json': {
          [key: string]: string | number | boolean | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            updated: number;
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  appendRows: {
    parameters: {
      query?: {
        /** @description The key column: insert or update by its value. */
        _upsert?: string;
      };
      header?: {
        /** @description Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best. */
        'idempotency-key'?: string;
      };
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          | {
              [key: string]: string | number | boolean | null;
            }
          | {
              [key: string]: string | number | boolean | null;
            }[];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            created: number;
            updated: number;
            /** @description The key of the row each body row created (or, with _upsert, created or updated: its first match), in body order. Answers stored before keys existed have none. */
            keys?: string[];
          };
        };
      };
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            created: number;
            updated?: number;
            /** @description The key of the row each body row created (or, with _upsert, created or updated: its first match), in body order. Answers stored before keys existed have none. */
            keys?: string[];
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteRows: {
    parameters: {
      query?: {
        /** @description Zero-based row position, or several separated by commas. */
        _id?: string;
        /** @description Row keys (as `_key` answers them), separated by commas: the rows with these keys, wherever they are now. Every key must name a row, or 404 `row-not-found` and nothing changes. Not with `_id` or filters. */
        _key?: string;
        /** @description Filters separated by |, each written as <column>=<value>: rows where at least one holds (city=Oslo|age=__gt(40)). \| is a literal |, \\ a backslash, \= an = in a column name. May be repeated: each must hold. */
        _or?: string | string[];
        /** @description Rows where some cell's text contains this text, ignoring case (Unicode case folding: ÉCOLE finds école); never column names. ANDed with the filters. */
        _q?: string;
      };
      header?: {
        /** @description Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best. */
        'idempotency-key'?: string;
      };
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deleted: number;
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description DELETE is switched off for this sheet (see the `Allow` header). */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  patchRows: {
    parameters: {
      query?: {
        /** @description Zero-based row position, or several separated by commas. */
        _id?: string;
        /** @description Row keys (as `_key` answers them), separated by commas: the rows with these keys, wherever they are now. Every key must name a row, or 404 `row-not-found` and nothing changes. Not with `_id` or filters. */
        _key?: string;
        /** @description Filters separated by |, each written as <column>=<value>: rows where at least one holds (city=Oslo|age=__gt(40)). \| is a literal |, \\ a backslash, \= an = in a column name. May be repeated: each must hold. */
        _or?: string | string[];
        /** @description Rows where some cell's text contains this text, ignoring case (Unicode case folding: ÉCOLE finds école); never column names. ANDed with the filters. */
        _q?: string;
      };
      header?: {
        /** @description Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best. */
        'idempotency-key'?: string;
      };
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    /** @description A row: column name to cell value. */
    requestBody: {
      content: {
        'application/json': {
          [key: string]: string | number | boolean | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            updated: number;
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  readRow: {
    parameters: {
      query?: {
        /** @description true: each row carries its position as "_id", first. */
        _with_id?: string;
      };
      header?: never;
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
        /** @description The row's key, as `_key` answers it: 1 to 64 of A-Z, a-z, 0-9, "_" and "-". */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The row: "_key", then column name to cell value. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: string | number | boolean | null;
          };
        };
      };
      /** @description Not modified: If-None-Match names the row's current ETag. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description POST to a row by its key (see the `Allow` header); new rows are POSTed to the sheet. */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  replaceRow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best. */
        'idempotency-key'?: string;
      };
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
        /** @description The row's key, as `_key` answers it: 1 to 64 of A-Z, a-z, 0-9, "_" and "-". */
        key: string;
      };
      cookie?: never;
    };
    /** @description A row: column name to cell value. */
    requestBody: {
      content: {
        'application/json': {
          [key: string]: string | number | boolean | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            updated: number;
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description POST to a row by its key (see the `Allow` header). */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteRow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best. */
        'idempotency-key'?: string;
      };
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
        /** @description The row's key, as `_key` answers it: 1 to 64 of A-Z, a-z, 0-9, "_" and "-". */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deleted: number;
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description DELETE is switched off for this sheet (see the `Allow` header). */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  patchRow: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best. */
        'idempotency-key'?: string;
      };
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
        /** @description The row's key, as `_key` answers it: 1 to 64 of A-Z, a-z, 0-9, "_" and "-". */
        key: string;
      };
      cookie?: never;
    };
    /** @description A row: column name to cell value. */
    requestBody: {
      content: {
        'application/json': {
          [key: string]: string | number | boolean | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            updated: number;
          };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description POST to a row by its key (see the `Allow` header). */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  queryRows: {
    parameters: {
      query?: {
        _id?: string;
        /** @description At most this many rows. */
        _limit?: number;
        /** @description Skip this many rows first. */
        _offset?: number;
        /** @description Row keys (as `_key` answers them), separated by commas: the rows with these keys, wherever they are now. Every key must name a row, or 404 `row-not-found` and nothing changes. Not with `_id` or filters. */
        _key?: string;
        /** @description true: each row carries its position as "_id", first. */
        _with_id?: string;
        /** @description true: each row carries its key as "_key" (text), first, or after "_id"; CSV and XLSX answers get a _key column. A key stays with its row while rows above it come and go, and is never given to another row of the sheet. 400 when the sheet has a column named _key. */
        _with_key?: string;
        /** @description Columns to sort by, "-" for descending: name,-age. With _group, group columns and aggregate expressions: -sum(price),city. */
        _sort?: string;
        /** @description The columns each row carries, in this order: name,email */
        _fields?: string;
        /** @description Filters separated by |, each written as <column>=<value>: rows where at least one holds (city=Oslo|age=__gt(40)). \| is a literal |, \\ a backslash, \= an = in a column name. May be repeated: each must hold. */
        _or?: string | string[];
        /** @description Rows where some cell's text contains this text, ignoring case (Unicode case folding: ÉCOLE finds école); never column names. ANDed with the filters. */
        _q?: string;
        /** @description Answer one object per group of rows with equal cells in these columns (city,year), in the order of each group's first row; empty cells group under null; 31 and "31" are different groups. Without _agg, the distinct groups. \, is a comma, \( and \) parentheses, \\ a backslash in a column name. _sort then takes group columns and aggregates (-sum(price)), _limit and _offset page groups; _fields does not apply. */
        _group?: string;
        /** @description Aggregates of each group (or of all chosen rows, as one object, without _group), each under its expression as written: count([column]), count_distinct(column), sum(column), avg(column), min(column), max(column). count() counts rows, count(column) non-empty cells; sum, avg, min and max read number cells only and answer null where a group has none. */
        _agg?: string;
      };
      header?: never;
      path: {
        /** @description The sheet id from /admin/v1/sheets. */
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rows in sheet order (or _sort order); CSV with Accept: text/csv; an XLSX workbook (header row, typed cells) with Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: string | number | boolean | null;
          }[];
          'text/csv': string;
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': string;
        };
      };
      /** @description Not modified: If-None-Match names the current version. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listSheets: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Sheet'][];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createSheet: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          | {
              name: string;
              columns: string[];
              rows?: {
                [key: string]: string | number | boolean | null;
              }[];
            }
          | {
              name?: string;
              /** @description The spreadsheet tab to mirror, as its provider names it. */
              source:
                | {
                    /** @enum {string} */
                    provider: 'google';
                    /** @description The spreadsheet id, or its address as the browser shows it. */
                    spreadsheetId: string;
                    /** @description The tab to serve; the first by default. "*" makes a sheet of every tab, named "<name> / <tab>". */
                    tab?: string;
                  }
                | {
                    /** @enum {string} */
                    provider: 'excel';
                    /** @description The workbook's drive id in Microsoft Graph. */
                    drive?: string;
                    /** @description The workbook's item id in its drive. */
                    item?: string;
                    /** @description A OneDrive or SharePoint sharing link to the workbook, instead of drive and item. */
                    link?: string;
                    /** @description The worksheet to serve; the first by default. "*" makes a sheet of every worksheet, named "<name> / <worksheet>". */
                    tab?: string;
                  };
              /** @description How old, in seconds, the copy of a mirrored spreadsheet may be before it is re-read. */
              freshnessSeconds?: number;
            };
        'multipart/form-data': {
          /**
           * Format: binary
           * @description A .csv, .tsv, .txt or .xlsx file.
           */
          file: string;
          /** @description The sheet name; the file name by default. */
          name?: string;
          /** @description XLSX worksheet; the first by default. "*" makes a sheet of every worksheet, named "<name> / <tab>". */
          tab?: string;
          /** @description CSV field delimiter, one character; detected from the first lines among , ; tab and | by default. */
          delimiter?: string;
          /** @description CSV text encoding, any label TextDecoder knows (utf-8, utf-16le, windows-1252, iso-8859-15...); by default from the byte-order mark, else UTF-8 if the whole file is valid UTF-8, else Windows-1252. */
          encoding?: string;
          /** @description CSV decimal mark: "." or ",", which reads 1.234,5 and 12,5 as numbers. By default decided from the whole file: "," if some cell only a decimal comma explains (12,50) and none only a point explains (1.5), "." in the reverse case, else "." with cells such as 1.250 kept as text. */
          decimal?: '.' | ',';
          /** @description A column whose cells are all kept as text (codes such as 007 and 1001); one part per column. A CSV column holding a code with a leading zero and no decimal number is declared by default. */
          textColumn?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['Sheet'] | components['schemas']['SheetsCreated'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSheet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Sheet'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteSheet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateSheet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SheetPatch'];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Sheet'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  refreshSheet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Sheet'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The spreadsheet service refused the request or its credentials. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKey'][];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          scopes: ('read' | 'create' | 'update' | 'delete')[];
          name?: string;
          /**
           * Format: date-time
           * @description When the key stops working (future).
           */
          expiresAt?: string;
          /** @description Or: how long from now the key works. */
          expiresInSeconds?: number;
        };
      };
    };
    responses: {
      /** @description A key as created or rotated: the only answer with its secret. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NewApiKey'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  rotateApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
        keyId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description How long the old key keeps working: 86400 (a day) by default; 0 revokes it now. */
          overlapSeconds?: number;
          /**
           * Format: date-time
           * @description When the key stops working (future).
           */
          expiresAt?: string;
          /** @description Or: how long from now the key works. */
          expiresInSeconds?: number;
        };
      };
    };
    responses: {
      /** @description A key as created or rotated: the only answer with its secret. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NewApiKey'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'][];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Where events are POSTed: http(s). */
          url: string;
          /** @description The event types sent; all of them by default. */
          events?: ('rows.created' | 'rows.updated' | 'rows.deleted' | 'columns.changed')[];
        };
      };
    };
    responses: {
      /** @description A webhook as created or given a new secret. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NewWebhook'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description How long deliveries are signed with the old secret too: 86400 (a day) by default; 0 for none. */
          overlapSeconds?: number;
        };
      };
    };
    responses: {
      /** @description A webhook as created or given a new secret. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NewWebhook'];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listDeliveries: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sheetId: string;
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'][];
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getProviders: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            google: {
              configured: boolean;
              canWrite: boolean;
              /** @description The address to share spreadsheets with. */
              shareWith: string | null;
            };
            excel: {
              configured: boolean;
              canWrite: boolean;
              /** @description The Microsoft Entra tenant Sheetport signs in to. */
              tenant: string | null;
            };
          };
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getProviderSignIn: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider that offers a sign-in: `excel`. */
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description pending: waiting for the person to enter the code; signed-in: the provider's documents are reached as that user; failed: the last sign-in did not complete (start another). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** @enum {string} */
                state: 'signed-out';
              }
            | {
                /** @enum {string} */
                state: 'pending';
                /** @description The code the person signing in enters. */
                userCode: string;
                /** @description Where they enter it. */
                verificationUri: string;
                /**
                 * Format: date-time
                 * @description When the code stops working.
                 */
                expiresAt: string;
                /** @description The provider's instructions, in words. */
                message: string;
              }
            | {
                /** @enum {string} */
                state: 'signed-in';
                /** @description Who signed in, as the provider names them (null when it would not say). */
                account: string | null;
                /** Format: date-time */
                signedInAt: string;
              }
            | {
                /** @enum {string} */
                state: 'failed';
                reason: 'declined' | 'expired' | 'refused';
                detail: string;
              };
        };
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description No such provider, or one that offers no sign-in (`route-not-found`); `providers` lists those that do. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  startProviderSignIn: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider that offers a sign-in: `excel`. */
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The code the person signing in enters. */
            userCode: string;
            /** @description Where they enter it. */
            verificationUri: string;
            /**
             * Format: date-time
             * @description When the code stops working.
             */
            expiresAt: string;
            /** @description The provider's instructions, in words. */
            message: string;
          };
        };
      };
      /** @description The provider's sign-in is not configured (`provider-not-configured`); `detail` names the setting. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description No such provider, or one that offers no sign-in (`route-not-found`); `providers` lists those that do. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The provider refused the application or the tenant (`provider-credentials-rejected`); `detail` says which setting to check. */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  signOutProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider that offers a sign-in: `excel`. */
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Missing or wrong credentials: the administrator token, or an API key of this sheet. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description No such provider, or one that offers no sign-in (`route-not-found`); `providers` lists those that do. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than this server accepts. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A segment of the path is longer than this server reads (100 characters); ids are shorter. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description A fault of the server; it has been logged. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The server is shutting down, or the database or the spreadsheet service is unavailable; send it again. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The database or the spreadsheet service did not say whether it applied the write or change. */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
}
