import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError, ValidationError } from './errors.ts';

/** An upload's file: the multipart form field "file", and nothing else will do (requests, bugs, manual evidence). */
export async function multipartFile(request: FastifyRequest): Promise<MultipartFile> {
  if (!request.isMultipart()) throw new UnsupportedMediaTypeError('Send the file as multipart/form-data in the form field "file"');
  const part = await request.file();
  if (!part) throw new ValidationError('file is required: send it in the form field "file"', 'file');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw new ValidationError(`file is required: send it in the form field "file", not "${part.fieldname}"`, 'file');
  }
  return part;
}
