/** The sign-in's way back: only to a screen of the console (an open redirect would send a signed-in agent anywhere). */
import { returnPath } from '../web/src/returnPath';

describe('returning after sign-in', () => {
  it.each([
    ['?next=%2Ftickets%2Ft-1', '/tickets/t-1'],
    ['?next=%2Finbox%3Fstatus%3Dopen', '/inbox?status=open'],
    ['', '/inbox'],
    ['?next=%2F%2Fevil.example%2Fx', '/inbox'],
    ['?next=%2F%5Cevil.example', '/inbox'],
    ['?next=https%3A%2F%2Fevil.example', '/inbox'],
    ['?next=javascript%3Aalert(1)', '/inbox'],
    ['?next=%2Fsignin%3Fnext%3D%2Finbox', '/inbox'],
  ])('%s goes to %s', (search, path) => {
    expect(returnPath(search)).toBe(path);
  });
});
