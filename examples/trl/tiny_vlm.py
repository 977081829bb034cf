"""A tiny vision-language model and its processor, built from local code only (no Hub download).

The architecture is Qwen2.5-VL's, with a few thousand parameters: enough for ``GRPOTrainer`` to run
its whole path (chat template with tool schemas, tool-call parsing, image tool results through the
vision tower, loss, optimizer step) on a CPU in seconds. Its outputs are noise; the tests script the
policy. The tokenizer is a byte-level BPE trained on the given texts, with Qwen's special tokens,
and the chat template is TRL's own ``qwen3_vl.jinja`` (one of the templates whose tool calls TRL
parses: ``trl.chat_template_utils.add_response_schema``).

One workaround: Qwen's VL processor needs torchvision (its video processor), which PyPI pairs only
with a CUDA build of torch. The PIL image processor is used instead, and the processor's class check
(which looks the video processor up) is skipped while the processor is built.
"""
from __future__ import annotations

from pathlib import Path

import trl
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration
from transformers.models.qwen2_5_vl.processing_qwen2_5_vl import Qwen2_5_VLProcessor
from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
from transformers.processing_utils import ProcessorMixin

CHAT_TEMPLATE = (Path(trl.__file__).parent / "chat_templates" / "qwen3_vl.jinja").read_text(encoding="utf-8")
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>",
           "<|image_pad|>", "<|video_pad|>"]
ADDED = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]


def tiny_tokenizer(corpus: list[str], vocab_size: int = 4000) -> PreTrainedTokenizerFast:
    """A byte-level BPE tokenizer trained on ``corpus``, with Qwen's special tokens and chat template."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(corpus + [CHAT_TEMPLATE], trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.add_special_tokens(SPECIAL)
    tok.add_tokens(ADDED)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = CHAT_TEMPLATE
    return fast


def tiny_processor(tokenizer: PreTrainedTokenizerFast, max_pixels: int = 28 * 28 * 16) -> Qwen2_5_VLProcessor:
    """Qwen2.5-VL's processor over ``tokenizer``: PIL image processor, no video processor (see above)."""
    image_processor = Qwen2VLImageProcessorPil(min_pixels=28 * 28 * 4, max_pixels=max_pixels)
    check = ProcessorMixin.check_argument_for_proper_class
    ProcessorMixin.check_argument_for_proper_class = lambda self, name, arg: None
    try:
        return Qwen2_5_VLProcessor(image_processor=image_processor, tokenizer=tokenizer, video_processor=None,
                                   chat_template=CHAT_TEMPLATE)
    finally:
        ProcessorMixin.check_argument_for_proper_class = check


def tiny_model(tokenizer: PreTrainedTokenizerFast) -> Qwen2_5_VLForConditionalGeneration:
    """A randomly initialised Qwen2.5-VL model with a 32-wide text and vision stack."""
    ids = tokenizer.convert_tokens_to_ids
    config = Qwen2_5_VLConfig(
        text_config={"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
                     "num_attention_heads": 2, "num_key_value_heads": 1, "vocab_size": len(tokenizer),
                     "max_position_embeddings": 16384,
                     "rope_scaling": {"type": "mrope", "mrope_section": [2, 2, 4]},
                     "bos_token_id": None, "eos_token_id": ids("<|im_end|>"), "pad_token_id": ids("<|endoftext|>")},
        vision_config={"depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2,
                       "out_hidden_size": 32, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                       "window_size": 56, "fullatt_block_indexes": [0]},
        image_token_id=ids("<|image_pad|>"), video_token_id=ids("<|video_pad|>"),
        vision_start_token_id=ids("<|vision_start|>"), vision_end_token_id=ids("<|vision_end|>"))
    return Qwen2_5_VLForConditionalGeneration(config)
