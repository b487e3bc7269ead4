"""Generated protobuf code for taskspec.v1 (see taskspec_pb2.py; do not edit that file)."""
