"""A face: `new NAME`, a fresh example's twins, its page and the next steps."""
