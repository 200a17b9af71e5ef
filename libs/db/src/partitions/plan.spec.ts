import {
  alignDown,
  duePartition,
  isPartitionNameOf,
  missingPartitions,
  parsePartitionBound,
  partitionName,
  pastPartitions,
  retiredMarker,
  retiredPartitionName,
  retiredPartitionOf,
  wantedRanges,
  type ExistingPartition,
  type PartitionedTable,
} from './plan';

const MIN = 60_000;
const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

describe('partition names and alignment', () => {
  it('aligns on multiples of the interval since the epoch', () => {
    expect(alignDown(at('2026-11-27T14:37:12Z'), DAY)).toBe(at('2026-11-27T00:00:00Z'));
    expect(alignDown(at('2026-11-27T14:37:12Z'), MIN)).toBe(at('2026-11-27T14:37:00Z'));
    expect(alignDown(at('2026-11-27T14:37:12Z'), 3_600_000)).toBe(at('2026-11-27T14:00:00Z'));
  });

  it('names a partition after its lower bound in UTC', () => {
    expect(partitionName('consultations', at('2026-11-27T14:00:00Z'))).toBe('consultations_p20261127t1400');
    expect(partitionName('seal_outbox', at('2026-01-02T03:04:30Z'))).toBe('seal_outbox_p20260102t030430');
  });

  it('knows the names it gives, and no other', () => {
    expect(isPartitionNameOf('consultations', 'consultations_p20261127t1400')).toBe(true);
    expect(isPartitionNameOf('consultations', 'consultations_legacy')).toBe(true);
    expect(isPartitionNameOf('consultations', 'consultations_default')).toBe(true);
    expect(isPartitionNameOf('consultations', 'consultations')).toBe(false);
    expect(isPartitionNameOf('consultations', 'approvals_p20261127t1400')).toBe(false);
    expect(isPartitionNameOf('consultations', 'consultations_p20261127t1400; DROP TABLE x')).toBe(false);
  });
});

describe('wantedRanges', () => {
  const now = at('2026-11-27T14:37:12Z');

  it('covers [now + R - interval, now + R + 2 intervals] for each retention, merged', () => {
    const ranges = wantedRanges(now, MIN, [0, 2 * MIN]);
    expect(ranges.map((r) => new Date(r.from as number).toISOString().slice(11, 16))).toEqual([
      '14:36',
      '14:37',
      '14:38',
      '14:39',
      '14:40',
      '14:41',
    ]);
    for (const r of ranges) expect((r.to as number) - (r.from as number)).toBe(MIN);
  });

  it('covers a day ahead for daily partitions and 90 days of retention', () => {
    const ranges = wantedRanges(now, DAY, [90 * DAY]);
    expect(ranges[0].from).toBe(alignDown(now + 89 * DAY, DAY));
    expect(ranges[ranges.length - 1].to).toBe(alignDown(now + 92 * DAY, DAY) + DAY);
  });
});

describe('missingPartitions', () => {
  const now = at('2026-11-27T14:37:00Z');
  const wanted = wantedRanges(now, MIN, [0]);

  it('creates every wanted partition of an empty table', () => {
    const planned = missingPartitions('t', wanted, [{ name: 't_default', from: null, to: null, isDefault: true }]);
    expect(planned.map((p) => p.name)).toEqual(['t_p20261127t1436', 't_p20261127t1437', 't_p20261127t1438', 't_p20261127t1439']);
  });

  it('creates only what is missing (a second run creates nothing)', () => {
    const existing: ExistingPartition[] = missingPartitions('t', wanted, []).map((p) => ({ ...p, isDefault: false }));
    expect(missingPartitions('t', wanted, existing)).toEqual([]);
  });

  it('cuts around a partition of other bounds instead of overlapping it', () => {
    const legacy: ExistingPartition = { name: 't_legacy', from: null, to: at('2026-11-27T14:38:00Z'), isDefault: false };
    expect(missingPartitions('t', wanted, [legacy]).map((p) => p.name)).toEqual(['t_p20261127t1438', 't_p20261127t1439']);
    const odd: ExistingPartition = {
      name: 't_p20261127t143630',
      from: at('2026-11-27T14:36:30Z'),
      to: at('2026-11-27T14:37:30Z'),
      isDefault: false,
    };
    const pieces = missingPartitions('t', wanted, [odd]);
    expect(pieces.map((p) => [new Date(p.from).toISOString().slice(11, 19), new Date(p.to).toISOString().slice(11, 19)])).toEqual([
      ['14:36:00', '14:36:30'],
      ['14:37:30', '14:38:00'],
      ['14:38:00', '14:39:00'],
      ['14:39:00', '14:40:00'],
    ]);
  });
});

describe('pastPartitions and the due list', () => {
  const now = at('2026-11-27T14:37:00Z');
  const parts: ExistingPartition[] = [
    { name: 't_default', from: null, to: null, isDefault: true },
    { name: 't_p20261127t1437', from: at('2026-11-27T14:37:00Z'), to: at('2026-11-27T14:38:00Z'), isDefault: false },
    { name: 't_p20261127t1436', from: at('2026-11-27T14:36:00Z'), to: at('2026-11-27T14:37:00Z'), isDefault: false },
    { name: 't_legacy', from: null, to: at('2026-11-27T14:30:00Z'), isDefault: false },
  ];

  it('lists the partitions whose upper bound has passed, never the default nor the current one', () => {
    expect(pastPartitions(parts, now).map((p) => p.name)).toEqual(['t_legacy', 't_p20261127t1436']);
  });

  it('describes a due partition with its bounds and archive kind', () => {
    const spec: PartitionedTable = { table: 't', key: 'keep_until', archive: 'consultations', gates: ['archive'], offsets: [] };
    expect(duePartition(spec, parts[2])).toEqual({
      table: 't',
      partition: 't_p20261127t1436',
      from: '2026-11-27T14:36:00.000Z',
      to: '2026-11-27T14:37:00.000Z',
      archive: 'consultations',
    });
    expect(duePartition(spec, parts[3]).from).toBeNull();
  });
});

describe('parsePartitionBound', () => {
  it('reads the catalog text of range, unbounded and default partitions', () => {
    expect(parsePartitionBound('p', "FOR VALUES FROM ('2026-11-27 14:00:00+00') TO ('2026-11-27 14:01:00+00')")).toEqual({
      name: 'p',
      from: at('2026-11-27T14:00:00Z'),
      to: at('2026-11-27T14:01:00Z'),
      isDefault: false,
    });
    expect(parsePartitionBound('p', "FOR VALUES FROM (MINVALUE) TO ('2027-02-25 16:00:00.5+00')").from).toBeNull();
    expect(parsePartitionBound('p', "FOR VALUES FROM (MINVALUE) TO ('2027-02-25 16:00:00.5+00')").to).toBe(at('2027-02-25T16:00:00.500Z'));
    expect(parsePartitionBound('d', 'DEFAULT').isDefault).toBe(true);
    expect(() => parsePartitionBound('x', 'FOR VALUES IN (1)')).toThrow(/unreadable/);
  });
});

describe('retired names (a drop detached the partition, its table is not dropped yet)', () => {
  it('names a retired partition after its table and suffix, and reads the partition back from that name only', () => {
    expect(retiredPartitionName('consultations', 'consultations_p20261127t1400')).toBe('consultations_retired_p20261127t1400');
    expect(retiredPartitionName('seal_outbox', 'seal_outbox_legacy')).toBe('seal_outbox_retired_legacy');
    expect(retiredPartitionOf('consultations', 'consultations_retired_p20261127t1400')).toBe('consultations_p20261127t1400');
    expect(retiredPartitionOf('shadow_disagreements', 'shadow_disagreements_retired_p20261127t140030')).toBe(
      'shadow_disagreements_p20261127t140030',
    );
    for (const name of [
      'consultations_retired_default',
      'consultations_retired_backup',
      'consultations_retired_p20261127t1400_copy',
      'consultations_p20261127t1400',
      'shadow_disagreements_retired_p20261127t1400',
      'consultations_retired_',
    ])
      expect(retiredPartitionOf('consultations', name)).toBeNull();
  });

  it('refuses to retire what is not a partition it names, or a name PostgreSQL would cut', () => {
    expect(() => retiredPartitionName('consultations', 'consultations_default')).toThrow();
    expect(() => retiredPartitionName('consultations', 'events_p20261127t1400')).toThrow();
    const long = 'a'.repeat(40);
    expect(() => retiredPartitionName(long, `${long}_p20261127t140000`)).toThrow(/63 bytes/);
  });

  it('marks a retired table with its partition and table', () => {
    expect(retiredMarker('consultations', 'consultations_p20261127t1400')).toContain('consultations_p20261127t1400 of consultations');
    expect(retiredMarker('consultations', 'consultations_p20261127t1400')).not.toBe(
      retiredMarker('consultations', 'consultations_p20261127t1401'),
    );
  });
});
