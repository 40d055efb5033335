// A path from an image (an entry's name, a file inside the unpacked tree) as a message shows it: the text
// comes from whoever built the image, so it is shown as written only when printable and short.

export function describePathInImage(pathInImage: string): string {
  const shown = pathInImage.length > 200 ? `${pathInImage.slice(0, 200)}...` : pathInImage;
  return /^[\x21-\x7e]+$/.test(shown) ? shown : JSON.stringify(shown);
}
