/** A valid 2 x 3 pixel PNG, for tests that send an image. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEUlEQVR4nGP4z8AARGACTgMAPtYF+1iCz0YAAAAASUVORK5CYII=', 'base64');
