import { keepUntilsOf, newDeliveryId } from './delivery-whereabouts';

const DAY = 86_400_000;

describe('delivery whereabouts', () => {
  it('reads back the event time a delivery id carries, plus each retention', () => {
    const at = new Date('2026-11-28T10:11:12.345Z');
    const id = newDeliveryId(at);
    expect(id).toMatch(/^dlv-[0-9a-f]{24}$/);
    expect(keepUntilsOf(id, [90 * DAY, 30 * DAY, 30 * DAY]).map((d) => d.toISOString())).toEqual([
      '2026-12-28T10:11:12.345Z',
      '2027-02-26T10:11:12.345Z',
    ]);
  });

  it('names nothing for an id of another form or no retention', () => {
    expect(keepUntilsOf('dlv-1', [DAY])).toEqual([]);
    expect(keepUntilsOf('evt-00000000000000aa', [DAY])).toEqual([]);
    expect(keepUntilsOf(newDeliveryId(new Date()), [])).toEqual([]);
  });

  it('gives two ids of one event different random parts', () => {
    const at = new Date();
    expect(newDeliveryId(at)).not.toBe(newDeliveryId(at));
  });
});
