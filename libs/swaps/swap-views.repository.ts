import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import {
  CursorReads,
  EntityColumns,
  keysetAtSql,
  keysetClauses,
  keysetPage,
  PreparedReads,
  SwapEntity,
  type KeysetPage,
  type KeysetPageRequest,
  type KeysetPosition,
} from '#app/persistence';
import type { SwapFilters } from './swap-filters.js';
import { SWAP_VIEW_FIELDS, type SwapPlacement, type SwapViewRow } from './swap.view.js';

/**
 * The conditions of `filters` on swaps aliased `s`, the owner's scope first; each value is
 * appended to `values` and referenced by its number. Only the filters given appear, so each
 * combination is its own statement and Postgres plans it with its own values: an absent filter
 * never becomes an `IS NULL OR` that defeats the indexes.
 */
function filterConditions(owner: OwnerScope, filters: SwapFilters, values: unknown[]): string[] {
  const param = (value: unknown): string => `$${values.push(value)}`;
  const conditions = [
    `s.organization_id = ${param(owner.organizationId)}`,
    `s.livemode = ${param(owner.livemode)}`,
  ];
  if (filters.status !== undefined) {
    conditions.push(`s.status = ${param(filters.status)}`);
  }
  if (filters.from !== undefined) {
    conditions.push(`s.from_ticker = ${param(filters.from)}`);
  }
  if (filters.to !== undefined) {
    conditions.push(`s.to_ticker = ${param(filters.to)}`);
  }
  if (filters.createdFrom !== undefined) {
    conditions.push(`s.created_at >= ${param(`${filters.createdFrom}T00:00:00Z`)}::timestamptz`);
  }
  if (filters.createdTo !== undefined) {
    conditions.push(
      `s.created_at < ${param(`${filters.createdTo}T00:00:00Z`)}::timestamptz + interval '1 day'`,
    );
  }
  if (filters.search !== undefined) {
    const exact = param(filters.search);
    const folded = param(filters.search.toLowerCase());
    conditions.push(
      `(s.id = ${exact} OR s.partner_reference_id = ${exact}
        OR lower(s.payin_address) = ${folded} OR lower(s.payout_address) = ${folded})`,
    );
  }
  if (filters.partnerReferenceId !== undefined) {
    conditions.push(`s.partner_reference_id = ${param(filters.partnerReferenceId)}`);
  }
  return conditions;
}

/** A page row: the view and its keyset position. */
type PositionedViewRow = SwapViewRow & { keysetAt: string };

function withoutPosition({ keysetAt: _, ...view }: PositionedViewRow): SwapViewRow {
  return view;
}

/**
 * The partner's reads of swaps: one by id, pages (the API's and the dashboard's, from one
 * statement builder), exports and pairs, always scoped to the owner's organization and mode
 * (and, apart, an operator's read by id of any swap).
 * Reads only (`SwapsRepository` writes the table). Each selects `SWAP_VIEW_FIELDS` through the
 * entity's column metadata, timestamps as ISO text, so no row pays for parsing a `Date` only to
 * print it again (docs/decisions.md, "Reads at the I/O floor"); every page and read by id is a
 * prepared statement, one per shape of filters.
 */
@Injectable()
export class SwapViewsRepository {
  private readonly prepared: PreparedReads;
  private readonly cursors: CursorReads;
  /** The view's select list of the swaps aliased `s`. */
  private readonly select: string;
  private readonly byIdSql: string;
  private readonly positionSql: string;
  private readonly byIdForOperatorSql: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.prepared = new PreparedReads(dataSource);
    this.cursors = new CursorReads(dataSource);
    const view = new EntityColumns(dataSource, SwapEntity).select('s', SWAP_VIEW_FIELDS, {
      iso: true,
    });
    this.select = view;
    const owned = 's.id = $1 AND s.organization_id = $2 AND s.livemode = $3';
    this.byIdSql = `SELECT ${view} FROM swaps s WHERE ${owned}`;
    this.positionSql = `SELECT ${keysetAtSql('s')} AS at, s.id FROM swaps s WHERE ${owned}`;
    const placement = new EntityColumns(dataSource, SwapEntity).select('s', [
      'provider',
      'providerTransactionId',
      'organizationId',
    ]);
    this.byIdForOperatorSql = `SELECT ${view}, ${placement} FROM swaps s WHERE s.id = $1`;
  }

  /** The owner's own swap; another org's or mode's id reads as unknown. One prepared statement. */
  async findViewByIdForOrg(id: string, owner: OwnerScope): Promise<SwapViewRow | null> {
    const rows = await this.prepared.rows<SwapViewRow>('swap-view-by-id', this.byIdSql, [
      id,
      owner.organizationId,
      owner.livemode,
    ]);
    return rows[0] ?? null;
  }

  /**
   * Any organization's swap in either mode, with where it lives: for operators only, whose reads
   * answer to no owner.
   */
  async findViewByIdForOperator(id: string): Promise<(SwapViewRow & SwapPlacement) | null> {
    const rows = await this.dataSource.query<(SwapViewRow & SwapPlacement)[]>(
      this.byIdForOperatorSql,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Where the owner's swap `id` sits in the list; null when the owner has no such swap. */
  async positionOf(id: string, owner: OwnerScope): Promise<KeysetPosition | null> {
    const rows = await this.prepared.rows<KeysetPosition>('swap-position', this.positionSql, [
      id,
      owner.organizationId,
      owner.livemode,
    ]);
    return rows[0] ?? null;
  }

  /**
   * Up to `page.limit` of the owner's swaps matching `filters` older than `page.after` (or the
   * newest), newest first: the API's list, on the dashboard's statement without its tokens.
   */
  async listViews(
    owner: OwnerScope,
    filters: SwapFilters,
    page: { limit: number; after?: KeysetPosition },
  ): Promise<SwapViewRow[]> {
    return this.page<SwapViewRow>(owner, filters, page, '', page.limit);
  }

  /**
   * `limit` of the owner's swaps matching `filters` after skipping `offset`, newest first, at
   * the cost of reading index entries: the skipped rows are counted in the index of the
   * filters (an index-only scan of ids), and only the page's rows are read from the table.
   */
  async listViewsAtOffset(
    owner: OwnerScope,
    filters: SwapFilters,
    limit: number,
    offset: number,
  ): Promise<SwapViewRow[]> {
    const values: unknown[] = [];
    const conditions = filterConditions(owner, filters, values);
    values.push(limit, offset);
    return this.prepared.shaped<SwapViewRow>(
      `SELECT ${this.select} FROM (
         SELECT s.id FROM swaps s WHERE ${conditions.join(' AND ')}
          ORDER BY s.created_at DESC, s.id DESC LIMIT $${values.length - 1} OFFSET $${values.length}
       ) page JOIN swaps s ON s.id = page.id
       ORDER BY s.created_at DESC, s.id DESC`,
      values,
    );
  }

  /**
   * One keyset page of the owner's swaps matching `filters`, newest first, with the tokens of
   * the pages beside it (the dashboard's). Every filter combination has an index in this order
   * (docs/decisions.md, "Dashboard reads"), so a page reads about `limit` index entries at any
   * depth.
   */
  async searchViews(
    owner: OwnerScope,
    filters: SwapFilters,
    page: KeysetPageRequest,
  ): Promise<KeysetPage<SwapViewRow>> {
    const rows = await this.page<PositionedViewRow>(
      owner,
      filters,
      page,
      `, ${keysetAtSql('s')} AS "keysetAt"`,
      page.limit + 1,
    );
    const result = keysetPage(rows, page, (row) => ({ at: row.keysetAt, id: row.id }));
    return { ...result, items: result.items.map(withoutPosition) };
  }

  /**
   * Up to `limit` rows of the view (and `extra` columns) next to the page's position, in the
   * order `keysetClauses` reads them: the one statement of every page.
   */
  private async page<T extends SwapViewRow>(
    owner: OwnerScope,
    filters: SwapFilters,
    page: KeysetPageRequest,
    extra: string,
    limit: number,
  ): Promise<T[]> {
    const values: unknown[] = [];
    const conditions = filterConditions(owner, filters, values);
    const keyset = keysetClauses('s', page, values.length + 1);
    if (keyset.condition) {
      conditions.push(keyset.condition);
      values.push(...keyset.values);
    }
    values.push(limit);
    return this.prepared.shaped<T>(
      `SELECT ${this.select}${extra} FROM swaps s WHERE ${conditions.join(' AND ')}
        ${keyset.order} LIMIT $${values.length}`,
      values,
    );
  }

  /**
   * Every one of the owner's swaps matching `filters`, newest first, in batches read from one
   * snapshot through a server-side cursor: memory holds one batch however many match.
   */
  exportViews(
    owner: OwnerScope,
    filters: SwapFilters,
    batchSize: number,
  ): AsyncGenerator<SwapViewRow[], void, undefined> {
    const values: unknown[] = [];
    const conditions = filterConditions(owner, filters, values);
    return this.cursors.batches<SwapViewRow>(
      `SELECT ${this.select} FROM swaps s WHERE ${conditions.join(' AND ')}
        ORDER BY s.created_at DESC, s.id DESC`,
      values,
      batchSize,
    );
  }

  /**
   * The pairs the owner's swaps use, by ticker. Walks the pair index one pair at a time (a
   * loose index scan), so it costs a few probes per pair, not a read of every swap.
   */
  async pairsOfOwner(owner: OwnerScope): Promise<{ from: string; to: string }[]> {
    return this.dataSource.query<{ from: string; to: string }[]>(
      `WITH RECURSIVE pairs AS (
         (SELECT from_ticker, to_ticker FROM swaps
           WHERE organization_id = $1 AND livemode = $2
           ORDER BY from_ticker, to_ticker LIMIT 1)
         UNION ALL
         SELECT next.from_ticker, next.to_ticker FROM pairs p,
           LATERAL (SELECT from_ticker, to_ticker FROM swaps
                     WHERE organization_id = $1 AND livemode = $2
                       AND (from_ticker, to_ticker) > (p.from_ticker, p.to_ticker)
                     ORDER BY from_ticker, to_ticker LIMIT 1) next
       )
       SELECT from_ticker AS "from", to_ticker AS "to" FROM pairs`,
      [owner.organizationId, owner.livemode],
    );
  }
}
