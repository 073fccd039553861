import { InvalidSearch, parseTicketSearch, searchSubstring } from './ticket-search';

describe('parseTicketSearch', () => {
  it('reads order numbers however written, handles in lower case, and the rest as words and phrases', () => {
    expect(parseTicketSearch(' #100234 ORD-555666 @Ana_Lima "never arrived" parcel ')).toEqual({
      orderNumbers: ['100234', '555666'],
      handles: ['ana_lima'],
      words: '"never arrived" parcel',
    });
    expect(parseTicketSearch('1234 refund')).toEqual({ orderNumbers: [], handles: [], words: '1234 refund' });
    expect(parseTicketSearch('100234')).toEqual({ orderNumbers: ['100234'], handles: [], words: null });
  });

  it('refuses fewer than 2 letters or digits with what to type instead', () => {
    for (const q of ['', ' a ', '%', '""', '@b', '#1']) expect(() => parseTicketSearch(q)).toThrow(InvalidSearch);
    expect(() => parseTicketSearch('x')).toThrow('q must have at least 2 letters or digits; type more of the word, "phrase", order number or @handle you are looking for');
    expect(parseTicketSearch('tv').words).toBe('tv');
  });

  it('looks for a substring only when the words have 3 characters or more', () => {
    expect(searchSubstring(parseTicketSearch('ab'))).toBeNull();
    expect(searchSubstring(parseTicketSearch('"romis"'))).toBe('romis');
  });
});
