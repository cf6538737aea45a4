import { ErrorCode } from '#app/errors';
import type { AuditRecord } from '#app/partners';
import { CIRCUIT_FAILURE_THRESHOLD } from '#app/routing';
import { FakeLiquidityProvider, routerOver, type TestRouter } from '#test/fakes';
import { ProviderControlService } from './provider-control.service.js';

describe(ProviderControlService.name, () => {
  let routing: TestRouter;
  let audit: AuditRecord[];
  let sut: ProviderControlService;

  beforeEach(() => {
    routing = routerOver([
      new FakeLiquidityProvider('cl', 'changelly'),
      new FakeLiquidityProvider('cn', 'changenow'),
    ]);
    audit = [];
    sut = new ProviderControlService(
      ['changelly', 'changenow'],
      routing.switches,
      routing.circuits,
      routing.recorder,
      routing.stats,
      {
        record: (entry) => {
          audit.push(entry);
          return Promise.resolve();
        },
      },
    );
  });

  afterEach(async () => {
    await routing.store.close();
  });

  it("lists the providers in PROVIDERS order with their live circuit and counts, this replica's unsaved ones included", async () => {
    routing.recorder.quoted('changelly', true, 30, false);
    routing.recorder.quoted('changelly', true, 150, true);
    routing.recorder.quoted('changelly', true, 180, false);
    routing.recorder.won('changelly', true);
    routing.recorder.quoted('changelly', false, 5000, true);
    routing.stats.swaps.set('changelly', 3);
    routing.stats.fidelities.set('changelly', { value: '0.99850000', swaps: 2 });
    for (let i = 0; i < CIRCUIT_FAILURE_THRESHOLD; i++) {
      await routing.circuits.record({ provider: 'changenow', livemode: true }, 'failure');
    }

    expect(await sut.list()).toEqual([
      {
        id: 'changelly',
        enabled: true,
        circuit: 'closed',
        quotes24h: 3,
        wins24h: 1,
        errors24h: 1,
        p50LatencyMs: 200,
        swaps24h: 3,
        fidelity24h: '0.99850000',
      },
      {
        id: 'changenow',
        enabled: true,
        circuit: 'open',
        quotes24h: 0,
        wins24h: 0,
        errors24h: 0,
        p50LatencyMs: null,
        swaps24h: 0,
        fidelity24h: null,
      },
    ]);
  });

  it('takes a provider out of routing and back, at once, audited under the actor', async () => {
    const disabled = await sut.setEnabled('changenow', false, 'admin');

    expect(disabled).toMatchObject({ id: 'changenow', enabled: false });
    expect(await routing.switches.enabled(['changelly', 'changenow'])).toEqual(['changelly']);
    expect((await sut.list()).map((p) => [p.id, p.enabled])).toEqual([
      ['changelly', true],
      ['changenow', false],
    ]);

    expect(await sut.setEnabled('changenow', true, 'cli')).toMatchObject({ enabled: true });
    expect(await sut.setEnabled('changenow', true, 'cli')).toMatchObject({ enabled: true });

    expect(await routing.switches.enabled(['changelly', 'changenow'])).toEqual([
      'changelly',
      'changenow',
    ]);
    expect(audit).toEqual([
      { actor: 'admin', action: 'provider.disable', targetType: 'provider', targetId: 'changenow' },
      { actor: 'cli', action: 'provider.enable', targetType: 'provider', targetId: 'changenow' },
      { actor: 'cli', action: 'provider.enable', targetType: 'provider', targetId: 'changenow' },
    ]);
  });

  it('refuses to take the last provider in routing out (409 conflict), recording nothing', async () => {
    await sut.setEnabled('changelly', false, 'admin');

    await expect(sut.setEnabled('changenow', false, 'admin')).rejects.toEqual(
      expect.objectContaining({ code: ErrorCode.Conflict }),
    );

    expect(await routing.switches.enabled(['changelly', 'changenow'])).toEqual(['changenow']);
    expect(audit.map((entry) => entry.targetId)).toEqual(['changelly']);
  });

  it.each(['nope', 'Changelly', ''])(
    'answers 404 for %p, which PROVIDERS does not name',
    async (id) => {
      await expect(sut.setEnabled(id, false, 'admin')).rejects.toEqual(
        expect.objectContaining({ code: ErrorCode.NotFound }),
      );

      expect(audit).toEqual([]);
    },
  );

  it('answers 404 for a provider it knows but this deployment does not route across', async () => {
    const alone = new ProviderControlService(
      ['changelly'],
      routing.switches,
      routing.circuits,
      routing.recorder,
      routing.stats,
      { record: () => Promise.resolve() },
    );

    await expect(alone.setEnabled('changenow', true, 'admin')).rejects.toEqual(
      expect.objectContaining({ code: ErrorCode.NotFound }),
    );
    expect((await alone.list()).map((p) => p.id)).toEqual(['changelly']);
  });
});
