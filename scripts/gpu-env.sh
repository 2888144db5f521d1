# Sourced by the GPU scripts: sets up GoMLX's XLA CUDA backend on the lent H200 from the machine's
# jax installation (no Go there). After sourcing, GOMLX_BACKEND=xla:cuda and PY is the Python with
# torch and jax. See issue 4 item 7 and scripts/gpu-check.sh.
PY=/opt/torch/.venv/bin/python3
SITE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
PLUGIN=$(ls "$SITE"/jax_plugins/xla_cuda13/xla_cuda_plugin.so "$SITE"/jax_plugins/xla_cuda*/xla_cuda_plugin.so 2>/dev/null | head -1)
if [ -z "$PLUGIN" ]; then
  echo "no jax CUDA plugin under $SITE/jax_plugins" >&2
  return 1 2>/dev/null || exit 1
fi
GPU_ENV_DIR=$(mktemp -d)
mkdir -p "$GPU_ENV_DIR/lib"
ln -sf "$PLUGIN" "$GPU_ENV_DIR/lib/pjrt_c_api_cuda_plugin.so"
ln -sfn "$SITE/nvidia" "$GPU_ENV_DIR/nvidia"
export PJRT_PLUGIN_LIBRARY_PATH=$GPU_ENV_DIR/lib
NVLIBS=$(ls -d "$SITE"/nvidia/*/lib 2>/dev/null | paste -sd: -)
export LD_LIBRARY_PATH=$NVLIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
LIBDEVICE=$(find -L "$SITE/nvidia" -path '*nvvm/libdevice/libdevice*.bc' 2>/dev/null | head -1)
if [ -n "$LIBDEVICE" ]; then
  export XLA_FLAGS="--xla_gpu_cuda_data_dir=${LIBDEVICE%/nvvm/libdevice/*}"
fi
export GOMLX_NO_AUTO_INSTALL=1 GOMLX_BACKEND=xla:cuda PYTHONUNBUFFERED=1
