package distill

// maxJSONFile is the size limit of a JSON input of this package (256 MiB).
const maxJSONFile = 256 << 20
